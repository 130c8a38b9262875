import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { sleep } from '../utils/async.js';
import { HttpReceiver, startReceiver } from '../utils/http-receiver.js';
import {
  clusterEnv,
  signedClient,
  standaloneEnv,
  startNode,
  TestNode,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';
import { createJob } from '../utils/jobs.js';

/**
 * Schedule types end to end (docs/trigger.md "Schedules"), in both shapes: a run that times out, FIXED_DELAY
 * (the next fire counted from the previous finish), ONE_SHOT (one fire, then completed and disabled for good),
 * and a pause that removes a staged fire without reporting it as the last fire.
 */
interface Row {
  id: string;
  fire_time: number;
  status: string;
  trigger_source: string;
  started_at: number | null;
  finished_at: number | null;
  error: string | null;
}
interface JobView {
  id: string;
  enabled: boolean;
  nextFireTime: string | null;
  lastFireTime: string | null;
  completedAt: string | null;
}
const FINAL = ['SUCCESS', 'FAILED', 'TIMEOUT', 'CANCELLED'];
const num = (v: unknown) => (v === null ? null : Number(v));

async function rowsOf(node: TestNode, jobId: string): Promise<Row[]> {
  const rows = (await node.ds.query(
    `SELECT id, fire_time, status, trigger_source, started_at, finished_at, error FROM job_instance
      WHERE job_id = ? ORDER BY fire_time`,
    [jobId],
  )) as Row[];
  return rows.map((r) => ({
    ...r,
    fire_time: Number(r.fire_time),
    started_at: num(r.started_at),
    finished_at: num(r.finished_at),
  }));
}

const SHAPES: Array<[string, () => Record<string, string>]> = [
  // The product's 15-s offline threshold (test/utils/task-shapes.ts): a starved jest worker keeps its executor.
  ['cluster', () => clusterEnv(uniqueNamespace('e2e-types'), { NODE_OFFLINE_AFTER_MS: '15000' })],
  ['standalone', () => standaloneEnv()],
];

describe.each(SHAPES)('schedule types end to end (%s shape)', (_shape, env) => {
  let fast: HttpReceiver;
  let slow: HttpReceiver;
  let node: TestNode;
  let client: TickwheelClient;

  beforeAll(async () => {
    fast = await startReceiver();
    slow = await startReceiver({ delayMs: 1500 });
    node = await startNode(env());
    client = await signedClient(node);
  });
  afterAll(async () => {
    await node?.close();
    await fast?.close();
    await slow?.close();
  });

  it('should end a run that outlives timeoutMs as TIMEOUT, and go on firing', async () => {
    const job = await createJob(client, {
      code: 'times-out',
      handler: 'http',
      triggerType: 'CRON',
      triggerExpr: '*/2 * * * * *',
      timeoutMs: 500,
      retryMax: 0,
      params: { method: 'GET', url: `${slow.url}/timeout` },
    });
    await waitFor(
      'two fires timed out',
      async () => (await rowsOf(node, job.id)).filter((r) => r.status === 'TIMEOUT').length >= 2,
      60_000,
      100,
    );
    await client.request('POST', `/api/jobs/${job.id}/pause`);
    for (const r of (await rowsOf(node, job.id)).filter((x) => x.status === 'TIMEOUT')) {
      expect(r.trigger_source).toBe('SCHEDULE');
      expect(r.error ?? '').not.toBe('');
      // Ended by the timeout, well before the receiver's 1.5 s answer.
      expect((r.finished_at as number) - (r.started_at as number)).toBeLessThan(1500);
    }
  }, 90_000);

  it('should count each FIXED_DELAY fire from the finish of the run before it', async () => {
    const delay = 1000;
    const job = await createJob(client, {
      code: 'fixed-delay',
      handler: 'http',
      triggerType: 'FIXED_DELAY',
      triggerExpr: String(delay),
      params: { method: 'GET', url: `${slow.url}/delay` },
    });
    await waitFor(
      'three runs done',
      async () => (await rowsOf(node, job.id)).filter((r) => r.status === 'SUCCESS').length >= 3,
      60_000,
      100,
    );
    await client.request('POST', `/api/jobs/${job.id}/pause`);
    await waitFor(
      'every run ended',
      async () => (await rowsOf(node, job.id)).every((r) => FINAL.includes(r.status)),
      30_000,
      100,
    );
    const rows = (await rowsOf(node, job.id)).filter((r) => r.status === 'SUCCESS');
    for (let i = 1; i < rows.length; i++) {
      const prev = rows[i - 1];
      // Each fire is the previous finish plus the delay, so runs never overlap (each takes 1.5 s, longer than it).
      expect(rows[i].fire_time).toBeGreaterThanOrEqual((prev.finished_at as number) + delay);
      expect(rows[i].fire_time - (prev.finished_at as number)).toBeLessThan(delay + 1000);
      expect(rows[i].started_at as number).toBeGreaterThanOrEqual(rows[i].fire_time);
    }
  }, 90_000);

  it('should fire a ONE_SHOT once, then show it completed and disabled, refuse its resume, and fire a new instant', async () => {
    const at = new Date(Math.ceil((Date.now() + 3000) / 1000) * 1000);
    const job = await createJob(client, {
      code: 'once',
      handler: 'http',
      triggerType: 'ONE_SHOT',
      triggerExpr: at.toISOString(),
      params: { method: 'GET', url: `${fast.url}/once` },
    });
    expect(job).toMatchObject({ enabled: true, nextFireTime: at.toISOString(), completedAt: null });
    await waitFor(
      'the fire ran',
      async () => (await rowsOf(node, job.id)).some((r) => r.status === 'SUCCESS'),
      30_000,
      100,
    );
    const view = (await client.request<JobView>('GET', `/api/jobs/${job.id}`)).body;
    expect(view).toMatchObject({ enabled: false, nextFireTime: null, lastFireTime: at.toISOString() });
    expect(Date.parse(view.completedAt as string)).toBeGreaterThanOrEqual(at.getTime() - 3000); // staged ahead
    const resume = await client.request<{ status: number; field?: string }>('POST', `/api/jobs/${job.id}/resume`);
    expect(resume.status).toBe(409);
    expect(resume.body).toMatchObject({ status: 409 });
    await sleep(1500); // time passes on purpose: a second fire would show here
    expect((await rowsOf(node, job.id)).map((r) => [r.fire_time, r.trigger_source])).toEqual([
      [at.getTime(), 'SCHEDULE'],
    ]);
    // A new instant makes it a job that may fire again.
    const again = new Date(Math.ceil((Date.now() + 3000) / 1000) * 1000);
    const patched = await client.request<JobView>('PATCH', `/api/jobs/${job.id}`, { triggerExpr: again.toISOString() });
    expect(patched.status).toBe(200);
    expect(patched.body.completedAt).toBeNull();
    expect((await client.request('POST', `/api/jobs/${job.id}/resume`)).status).toBe(200);
    await waitFor(
      'the new instant ran',
      async () => (await rowsOf(node, job.id)).filter((r) => r.status === 'SUCCESS').length === 2,
      30_000,
      100,
    );
    expect((await rowsOf(node, job.id)).map((r) => r.fire_time)).toEqual([at.getTime(), again.getTime()]);
  }, 90_000);

  it('should answer a pause that removed a staged fire with the last fire made, never one in the future', async () => {
    const job = await createJob(client, {
      code: 'paused-staged',
      handler: 'http',
      triggerType: 'CRON',
      triggerExpr: '* * * * * *',
      params: { method: 'GET', url: `${fast.url}/paused` },
    });
    await waitFor(
      'a fire staged 1 s ahead, after one that ran',
      async () => {
        const rows = await rowsOf(node, job.id);
        return rows.some((r) => r.fire_time > Date.now() + 1000) && rows.some((r) => r.status === 'SUCCESS');
      },
      30_000,
      20,
    );
    const paused = await client.request<JobView>('POST', `/api/jobs/${job.id}/pause`);
    const after = Date.now();
    expect(paused.status).toBe(200);
    const last = Date.parse(paused.body.lastFireTime as string);
    expect(last).toBeLessThanOrEqual(after);
    const kept = (await rowsOf(node, job.id)).map((r) => r.fire_time);
    expect(last).toBe(Math.max(...kept)); // the latest fire left, the one the view shows from now on
    const view = (await client.request<JobView>('GET', `/api/jobs/${job.id}`)).body;
    expect(view.lastFireTime).toBe(paused.body.lastFireTime);
  }, 60_000);
});
