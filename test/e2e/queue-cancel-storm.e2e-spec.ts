import { Injectable, Module } from '@nestjs/common';
import { JobContext, JobHandler, JobHandlerImpl } from '../../src/modules/execution/index.js';
import {
  clusterEnv,
  executorsBeat,
  jobInstanceStatuses,
  signedClient,
  standaloneEnv,
  startNode,
  type TestNode,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';
import type { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { createJob, triggerNow } from '../utils/jobs.js';
import { sleep } from '../utils/async.js';

/** Handler runs per job code: in flight now, the most at once, and the order they started in. */
const active = new Map<string, number>();
const peak = new Map<string, number>();
const started: Array<{ code: string; instanceId: string }> = [];
const ended = new Map<string, number>();
const held = new Set<string>();
/** How long an aborted run of a code takes to wind down (ms); 400 unless set. */
const windDown = new Map<string, number>();

/**
 * `q.slow`: runs until its signal aborts it (or the test lets its code go), then takes 400 ms to wind down
 * (a transaction rolled back, a socket closed), well inside the 1 s the executor waits for an aborted handler.
 */
@Injectable()
@JobHandler('q.slow')
class SlowStopHandler implements JobHandlerImpl {
  async execute(ctx: JobContext): Promise<unknown> {
    const code = ctx.jobCode as string;
    const n = (active.get(code) ?? 0) + 1;
    active.set(code, n);
    peak.set(code, Math.max(peak.get(code) ?? 0, n));
    started.push({ code, instanceId: ctx.instanceId });
    try {
      await new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if (!held.has(code) || ctx.signal.aborted) {
            clearInterval(poll);
            resolve();
          }
        }, 5);
      });
      if (ctx.signal.aborted) await new Promise((r) => setTimeout(r, windDown.get(code) ?? 400));
      return { ok: true };
    } finally {
      active.set(code, (active.get(code) ?? 1) - 1);
      ended.set(ctx.instanceId, Date.now());
    }
  }
}

@Module({ providers: [SlowStopHandler] })
class SlowStopModule {}

const shapes: Array<[string, () => Record<string, string>]> = [
  ['standalone', () => standaloneEnv({ LOG_LEVEL: 'error' })],
  ['cluster', () => clusterEnv(uniqueNamespace('e2e-qcancel'), { NODE_OFFLINE_AFTER_MS: '15000', LOG_LEVEL: 'error' })],
];

/**
 * QUEUE overlap (docs/trigger.md) runs fires one at a time in fire order; a cancel of the running one (docs/execution.md) must
 * not let the next start while the cancelled handler is still winding down — whoever releases the next (a cancel
 * of a waiting instance, the leader's pass, the executor).
 */
describe.each(shapes)('QUEUE overlap with cancels (%s)', (shape, env) => {
  let node: TestNode;
  let client: TickwheelClient;
  beforeAll(async () => {
    node = await startNode(env(), { imports: [SlowStopModule] });
    client = await signedClient(node);
    if (shape === 'cluster') await executorsBeat(node, 1);
  }, 60_000);
  afterAll(async () => {
    held.clear();
    await node?.close();
  });

  const rows = (jobId: string) => jobInstanceStatuses(node.ds, jobId);

  /** Creates a QUEUE job `code` of `q.slow` held running, fires it `n` times, waits until the first runs. @returns job id and instance ids. */
  async function queued(code: string, n: number): Promise<{ jobId: string; ids: string[] }> {
    held.add(code);
    const job = await createJob(client, { code, handler: 'q.slow', overlapPolicy: 'QUEUE', timeoutMs: 60_000 });
    await triggerNow(client, code, n);
    await waitFor(
      'the first runs, the rest wait',
      async () => {
        const rs = await rows(job.id);
        return (
          rs.length === n &&
          rs[0].status === 'RUNNING' &&
          rs.slice(1).every((r) => r.status === 'WAITING') &&
          (active.get(code) ?? 0) === 1
        );
      },
      30_000,
      20,
    );
    return { jobId: job.id, ids: (await rows(job.id)).map((r) => r.id) };
  }

  it("the leader's pass (every second here) does not release the next fire while the cancelled one winds down", async () => {
    const code = `ql-${shape.slice(0, 2)}-${Date.now() % 100000}`;
    windDown.set(code, 900);
    const {
      jobId,
      ids: [a, b],
    } = await queued(code, 2);
    expect((await client.request('POST', `/api/jobs/${code}/instances/${a}/cancel`)).status).toBe(200);
    await waitFor('B runs', async () => started.some((s) => s.instanceId === b), 30_000, 20);
    held.delete(code);
    await waitFor(
      'all final',
      async () => (await rows(jobId)).every((r) => ['SUCCESS', 'CANCELLED', 'FAILED'].includes(r.status)),
      30_000,
      50,
    );
    expect((await rows(jobId)).map((r) => r.status)).toEqual(['CANCELLED', 'SUCCESS']);
    expect(peak.get(code)).toBe(1);
  }, 90_000);

  it('a fire made while the cancelled one still winds down waits for it (QUEUE), or is skipped (SKIP)', async () => {
    for (const policy of ['QUEUE', 'SKIP']) {
      const code = `qn-${policy.slice(0, 1)}${shape.slice(0, 2)}-${Date.now() % 100000}`;
      windDown.set(code, 900);
      held.add(code);
      const job = await createJob(client, { code, handler: 'q.slow', overlapPolicy: policy, timeoutMs: 60_000 });
      expect((await client.request('POST', `/api/jobs/${code}/trigger`, {})).status).toBe(202);
      await waitFor('A runs', async () => (active.get(code) ?? 0) === 1, 30_000, 20);
      const [a] = (await rows(job.id)).map((r) => r.id);
      expect((await client.request('POST', `/api/jobs/${code}/instances/${a}/cancel`)).status).toBe(200);
      const b = await client.request<{ instanceId: string; status: string }>('POST', `/api/jobs/${code}/trigger`, {});
      expect(b.status).toBe(202);
      held.delete(code);
      await waitFor(
        'all final, A stopped',
        async () =>
          (active.get(code) ?? 0) === 0 &&
          (await rows(job.id)).every((r) => ['SUCCESS', 'CANCELLED', 'FAILED'].includes(r.status)),
        30_000,
        50,
      );
      expect(peak.get(code)).toBe(1);
      const after = (await node.ds.query(
        'SELECT status, error FROM job_instance WHERE job_id = ? ORDER BY fire_time, id',
        [job.id],
      )) as Array<{ status: string; error: string | null }>;
      if (policy === 'QUEUE') expect(after.map((r) => r.status)).toEqual(['CANCELLED', 'SUCCESS']);
      else
        expect(after.map((r) => [r.status, /OVERLAP_SKIP/.test(r.error ?? '')])).toEqual([
          ['CANCELLED', false],
          ['CANCELLED', true],
        ]);
    }
  }, 90_000);

  it('limit 3: cancelling every running and waiting instance at once, then firing again, never runs more than 3', async () => {
    const code = `lc-${shape.slice(0, 2)}-${Date.now() % 100000}`;
    held.add(code);
    const job = await createJob(client, { code, handler: 'q.slow', maxConcurrency: 3, timeoutMs: 60_000 });
    await triggerNow(client, code, 10);
    await waitFor(
      '3 run, 7 wait',
      async () =>
        (active.get(code) ?? 0) === 3 && (await rows(job.id)).filter((r) => r.status === 'WAITING').length === 7,
      30_000,
      20,
    );
    const first = (await rows(job.id)).map((r) => r.id);
    const answers = await Promise.all(
      first.map((id) =>
        client
          .request<{ status: string }>('POST', `/api/jobs/${code}/instances/${id}/cancel`)
          .then((r) => r.body.status),
      ),
    );
    expect(answers).toEqual(first.map(() => 'CANCELLED'));
    await triggerNow(client, code, 4);
    held.delete(code);
    await waitFor(
      'all final',
      async () =>
        (active.get(code) ?? 0) === 0 &&
        (await rows(job.id)).every((r) => ['SUCCESS', 'CANCELLED', 'FAILED'].includes(r.status)),
      30_000,
      50,
    );
    const after = await rows(job.id);
    expect(after.map((r) => r.status)).toEqual([
      ...first.map(() => 'CANCELLED'),
      'SUCCESS',
      'SUCCESS',
      'SUCCESS',
      'SUCCESS',
    ]);
    expect(peak.get(code)).toBe(3);
  }, 90_000);

  it('QUEUE: cancels of random running and waiting fires while they flow keep the rest one at a time, in fire order', async () => {
    const code = `qo-${shape.slice(0, 2)}-${Date.now() % 100000}`;
    held.add(code);
    const job = await createJob(client, {
      code,
      handler: 'q.slow',
      overlapPolicy: 'QUEUE',
      queueLimit: 20, // all 16 fires queue (the default 10 would skip some)
      timeoutMs: 60_000,
    });
    await triggerNow(client, code, 16);
    const ids = (await rows(job.id)).map((r) => r.id);
    held.delete(code);
    const victims = ids.filter((_, i) => i % 3 === 1);
    await Promise.all(
      victims.map(async (id, k) => {
        await sleep(k * 7); // the cancels spread over time on purpose, interleaved with the runs' ends
        const a = await client.request<{ status: string }>('POST', `/api/jobs/${code}/instances/${id}/cancel`);
        expect(['CANCELLED', 'SUCCESS']).toContain(a.body.status);
      }),
    );
    await waitFor(
      'all final',
      async () =>
        (active.get(code) ?? 0) === 0 &&
        (await rows(job.id)).every((r) => ['SUCCESS', 'CANCELLED', 'FAILED'].includes(r.status)),
      30_000,
      50,
    );
    const order = started.filter((s) => s.code === code).map((s) => ids.indexOf(s.instanceId));
    expect(order).toEqual([...order].sort((x, y) => x - y));
    expect(new Set(order).size).toBe(order.length);
    expect(peak.get(code)).toBe(1);
    const after = await rows(job.id);
    expect(after.filter((r) => r.status === 'SUCCESS').map((r) => ids.indexOf(r.id))).toEqual(
      order.filter((i) => after[i].status === 'SUCCESS'),
    );
  }, 90_000);

  it('cancelling the running fire and then a waiting one does not start the third beside the first', async () => {
    const code = `qc-${shape.slice(0, 2)}-${Date.now() % 100000}`;
    held.add(code);
    const jobId = (await createJob(client, { code, handler: 'q.slow', overlapPolicy: 'QUEUE', timeoutMs: 60_000 })).id;
    await triggerNow(client, code, 4);
    await waitFor(
      'A runs, the rest wait',
      async () => {
        const rs = await rows(jobId);
        return (
          rs[0]?.status === 'RUNNING' &&
          rs.slice(1).every((r) => r.status === 'WAITING') &&
          (active.get(code) ?? 0) === 1
        );
      },
      30_000,
      20,
    );
    const [a, b, c, d] = (await rows(jobId)).map((r) => r.id);
    expect((await client.request('POST', `/api/jobs/${code}/instances/${a}/cancel`)).status).toBe(200);
    expect((await client.request('POST', `/api/jobs/${code}/instances/${b}/cancel`)).status).toBe(200);
    await waitFor('C runs', async () => started.some((s) => s.instanceId === c), 30_000, 20);
    held.delete(code);
    await waitFor(
      'all final',
      async () => (await rows(jobId)).every((r) => ['SUCCESS', 'CANCELLED', 'FAILED'].includes(r.status)),
      30_000,
      50,
    );
    expect((await rows(jobId)).map((r) => r.status)).toEqual(['CANCELLED', 'CANCELLED', 'SUCCESS', 'SUCCESS']);
    expect(started.filter((s) => s.code === code).map((s) => s.instanceId)).toEqual([a, c, d]);
    expect(peak.get(code)).toBe(1);
  }, 90_000);
});
