import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { EffectLog, startEffectLog } from '../utils/effect-log.js';
import { HttpReceiver, startReceiver } from '../utils/http-receiver.js';
import { signedClient, standaloneEnv, startNode, TestNode, waitFor } from '../utils/test-node.js';
import { createJob } from '../utils/jobs.js';
import { sleep } from '../utils/async.js';

interface Row {
  id: string;
  fire_time: string | number;
  status: string;
  error: string | null;
  started_at: string | number | null;
  finished_at: string | number | null;
}

/**
 * Overlap policies (docs/trigger.md) and cancel (docs/state-machine.md, docs/execution.md) with a slow receiver: each run takes ~2.5 s, fires
 * come every second. Each case waits for the fires its policy has to show (not a fixed number of seconds: a
 * loaded machine fires later); the runs that must still be running when the test acts are held by a second
 * receiver until the test lets them go.
 */
describe('overlap policies and cancel (standalone)', () => {
  let node: TestNode;
  let receiver: HttpReceiver;
  /** Holds every call until released: a run that lasts exactly as long as the test needs. */
  let held: EffectLog;
  let client: TickwheelClient;

  beforeAll(async () => {
    receiver = await startReceiver({ delayMs: 2500 });
    held = await startEffectLog(() => ({ hold: true }));
    node = await startNode(standaloneEnv({ HEARTBEAT_INTERVAL_MS: '300', NODE_OFFLINE_AFTER_MS: '3000' }));
    client = await signedClient(node);
  });
  afterAll(async () => {
    await node?.close();
    await receiver?.close();
    await held?.close();
  });

  const rows = async (jobId: string) =>
    (await node.ds.query(
      'SELECT id, fire_time, status, error, started_at, finished_at FROM job_instance WHERE job_id = ? ORDER BY fire_time',
      [jobId],
    )) as Row[];

  /**
   * Creates an every-second job under `overlapPolicy`, lets it fire until `enough(rows)` (what the policy must
   * show; a product that never shows it times out here), pauses it and waits until every fire has ended.
   */
  async function runJob(
    code: string,
    overlapPolicy: string,
    what: string,
    enough: (rs: Row[]) => boolean,
  ): Promise<Row[]> {
    const job = await createJob(client, {
      code,
      handler: 'http',
      triggerType: 'CRON',
      triggerExpr: '* * * * * *',
      overlapPolicy,
      params: { url: `${receiver.url}/${code}`, timeoutMs: 10_000 },
    });
    await waitFor(`${code}: ${what}`, async () => enough(await rows(job.id)), 60_000, 200);
    await client.request('POST', `/api/jobs/${code}/pause`);
    // A paused job's queued (WAITING) fires wait for its resume; everything else ends.
    await waitFor(
      `${code} settled`,
      async () => (await rows(job.id)).every((r) => ['SUCCESS', 'CANCELLED', 'FAILED', 'WAITING'].includes(r.status)),
      60_000,
      200,
    );
    return rows(job.id);
  }

  /** Largest number of runs that overlapped in time. */
  const maxConcurrent = (rs: Row[]) => {
    const ran = rs
      .filter((r) => r.started_at !== null && r.finished_at !== null)
      .map((r) => [Number(r.started_at), Number(r.finished_at)]);
    return Math.max(0, ...ran.map(([s]) => ran.filter(([s2, f2]) => s2 <= s && s < f2).length));
  };

  it('should run fires side by side under ALLOW', async () => {
    const rs = await runJob(
      'allow',
      'ALLOW',
      'two runs at once',
      (x) => x.filter((r) => r.status === 'RUNNING').length >= 2 || maxConcurrent(x) > 1,
    );
    expect(rs.every((r) => r.status === 'SUCCESS')).toBe(true);
    expect(maxConcurrent(rs)).toBeGreaterThan(1);
  }, 150_000);

  it('should record fires during a run as CANCELLED (OVERLAP_SKIP) under SKIP, never two runs at once', async () => {
    const rs = await runJob(
      'skip',
      'SKIP',
      'a fire skipped and a run finished',
      (x) => x.some((r) => r.status === 'CANCELLED') && x.some((r) => r.status === 'SUCCESS'),
    );
    const skipped = rs.filter((r) => r.status === 'CANCELLED');
    expect(skipped.length).toBeGreaterThan(0);
    for (const r of skipped) expect(r.error).toMatch(/OVERLAP_SKIP/);
    expect(rs.filter((r) => r.status === 'SUCCESS').length).toBeGreaterThan(0);
    expect(maxConcurrent(rs)).toBe(1);
  }, 150_000);

  it('should hold fires WAITING and run them one at a time, in fire order, under QUEUE', async () => {
    const all = await runJob('queue', 'QUEUE', 'three fires written', (x) => x.length >= 3);
    expect(all.length).toBeGreaterThanOrEqual(3);
    const rs = all.filter((r) => r.status !== 'WAITING');
    expect(rs.every((r) => r.status === 'SUCCESS')).toBe(true);
    expect(maxConcurrent(rs)).toBe(1);
    const starts = rs.map((r) => Number(r.started_at));
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
  }, 150_000);

  it('should cancel the unfinished fire and run the new one under REPLACE', async () => {
    const rs = await runJob('replace', 'REPLACE', 'a run replaced', (x) => x.some((r) => r.status === 'CANCELLED'));
    const cancelled = rs.filter((r) => r.status === 'CANCELLED');
    expect(cancelled.length).toBeGreaterThan(0);
    for (const r of cancelled) expect(r.error).toMatch(/OVERLAP_REPLACE/);
    expect(rs.at(-1)?.status).toBe('SUCCESS');
  }, 150_000);

  it('should apply the overlap policy to trigger-now (it used to start a second run under SKIP)', async () => {
    const job = await createJob(client, {
      code: 'manual-skip',
      handler: 'http',
      overlapPolicy: 'SKIP',
      params: { url: `${held.url}/manual`, timeoutMs: 120_000 },
    });
    const first = await client.request<{ instanceId: string; status: string }>(
      'POST',
      '/api/jobs/manual-skip/trigger',
      {},
    );
    expect(first.status).toBe(202);
    // The first run is held by the receiver until the second trigger has been answered (with a 2.5 s run, a
    // loaded machine could end the first run before the second trigger arrived, and that one rightly ran).
    await waitFor(
      'first manual run running',
      async () => (await rows(job.id)).some((r) => r.status === 'RUNNING'),
      30_000,
      50,
    );
    const second = await client.request<{ status: string; error: string | null }>(
      'POST',
      '/api/jobs/manual-skip/trigger',
      {},
    );
    expect(second.status).toBe(202);
    expect(second.body.status).toBe('CANCELLED');
    held.release('/manual');
    await waitFor(
      'settled',
      async () => (await rows(job.id)).every((r) => ['SUCCESS', 'CANCELLED'].includes(r.status)),
      30_000,
      100,
    );
    const rs = await rows(job.id);
    expect(rs.map((r) => r.status).sort()).toEqual(['CANCELLED', 'SUCCESS']);
    expect(rs.find((r) => r.status === 'CANCELLED')?.error).toMatch(/OVERLAP_SKIP/);
    expect(held.effects.filter((e) => e.path === '/manual')).toHaveLength(1);
  }, 90_000);

  it('should cancel a delayed task before it runs, and a running one within a heartbeat', async () => {
    const later = await client.submitTask({
      requestId: 'cancel-later',
      handler: 'http',
      params: { url: `${receiver.url}/later` },
      delayMs: 60_000,
    });
    expect(later.status).toBe(202);
    const c1 = await client.request<{ status: string }>('POST', '/api/tasks/cancel-later/cancel');
    expect(c1.status).toBe(200);
    expect(c1.body.status).toBe('CANCELLED');
    // Held by the receiver: still running whenever the cancel arrives.
    const slow = await client.submitTask({
      requestId: 'cancel-running',
      handler: 'http',
      params: { url: `${held.url}/slow`, timeoutMs: 120_000 },
    });
    expect(slow.status).toBe(202);
    await waitFor(
      'running',
      async () => (await client.getTask('cancel-running')).body.status === 'RUNNING',
      30_000,
      50,
    );
    const c2 = await client.request<{ status: string; instanceId: string }>('POST', '/api/tasks/cancel-running/cancel');
    expect(c2.body.status).toBe('CANCELLED');
    await waitFor(
      'attempt closed as CANCELLED',
      async () => {
        const a: Array<{ status: string }> = await node.ds.query(
          'SELECT status FROM job_attempt WHERE instance_id = ?',
          [c2.body.instanceId],
        );
        return a[0]?.status === 'CANCELLED';
      },
      30_000,
      100,
    );
    held.release('/slow'); // the receiver answers now (if the call is still open): the late result must not land
    await sleep(3000); // time passes on purpose: a late result would land in this window
    const after = (await client.getTask('cancel-running')).body as { status: string; result: unknown };
    expect(after.status).toBe('CANCELLED');
    expect(after.result).toBeNull();
    const again = await client.request<{ status: string }>('POST', '/api/tasks/cancel-running/cancel');
    expect(again.body.status).toBe('CANCELLED');
    expect((await client.request('POST', '/api/tasks/nope/cancel')).status).toBe(404);
  }, 90_000);
});
