import { Injectable, Module } from '@nestjs/common';
import { Redis } from 'ioredis';
import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { JobContext, JobHandler, JobHandlerImpl } from '../../src/modules/execution/index.js';
import { TaskRunner } from '../../src/modules/execution/task-runner.service.js';
import {
  clusterEnv,
  REDIS_URL,
  signedClient,
  startNode,
  TestNode,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';
import { createJob } from '../utils/jobs.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import { sleep } from '../utils/async.js';

/** What the handler saw, per attempt. */
const started = new Map<number, JobContext>();
const aborted = new Map<number, string>();
let releaseFirst: () => void = () => undefined;
const firstHeld = new Promise<void>((r) => (releaseFirst = r));

/**
 * `reclaim.hold`: attempt 1 hangs (it ignores its signal) until the test releases it; later attempts run
 * until their signal aborts, and note why.
 */
@Injectable()
@JobHandler('reclaim.hold')
class HoldHandler implements JobHandlerImpl {
  async execute(ctx: JobContext): Promise<unknown> {
    started.set(ctx.attempt, ctx);
    if (ctx.attempt === 1) {
      await firstHeld;
      return { attempt: 1 };
    }
    return new Promise((_, reject) =>
      ctx.signal.addEventListener(
        'abort',
        () => {
          aborted.set(ctx.attempt, String((ctx.signal.reason as Error)?.message));
          reject(ctx.signal.reason as Error);
        },
        { once: true },
      ),
    );
  }
}

/** `reclaim.limited`: every attempt runs until its signal aborts; attempts it has seen, by instance. */
const limitedSeen: Array<{ instanceId: string; attempt: number }> = [];
@Injectable()
@JobHandler('reclaim.limited')
class LimitedHandler implements JobHandlerImpl {
  execute(ctx: JobContext): Promise<unknown> {
    limitedSeen.push({ instanceId: ctx.instanceId, attempt: ctx.attempt });
    return new Promise((_, reject) =>
      ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error), { once: true }),
    );
  }
}

@Module({ providers: [HoldHandler, LimitedHandler] })
class HoldModule {}

/**
 * An attempt whose lease ran out while its handler hung is taken back (PENDING, attempt 2) and, with one
 * executor, claimed again by the same node while attempt 1 still hangs there. The node tracks running
 * attempts by instance id: when attempt 1 finally ended, its clean-up removed attempt 2's entry, so
 * attempt 2 was no longer watched — a cancel never aborted it, and its lease was never renewed.
 *
 * And once attempt 1 is aborted (REVOKED) its end used to free the job's maxConcurrency slot the instance
 * holds again for attempt 2 (the holder is the instance id): the reconciler had freed attempt 1's slot
 * already, so the limit no longer counted attempt 2 and a second fire ran beside it.
 */
describe('an instance re-claimed on the node where its old attempt still runs (MariaDB + Redis)', () => {
  const ns = uniqueNamespace('e2e-reclaim');
  let api: TestNode;
  let executor: TestNode;
  let client: TickwheelClient;

  beforeAll(async () => {
    api = await startNode(
      clusterEnv(ns, { ROLES: 'api,scheduler', NODE_OFFLINE_AFTER_MS: '15000', RECONCILE_INTERVAL_MS: '1000' }),
    );
    // A long lease renewed rarely: only the test's own expiry takes it back.
    executor = await startNode(
      clusterEnv(ns, {
        ROLES: 'executor',
        NODE_OFFLINE_AFTER_MS: '15000',
        LEASE_MS: '600000',
        LEASE_RENEW_MS: '300000',
      }),
      { imports: [HoldModule] },
    );
    client = await signedClient(api);
    await waitFor(
      'executor to advertise reclaim.hold',
      async () => {
        const nodes = await client.request<{ items: Array<{ handlers: string[] }> }>(
          'GET',
          '/api/nodes?handler=reclaim.hold',
        );
        return nodes.body.items.some((n) => n.handlers.includes('reclaim.hold'));
      },
      30_000,
    );
  }, 60_000);

  afterAll(async () => {
    releaseFirst();
    await executor?.close();
    await deleteNamespaceRows(api?.ds, ns);
    await api?.close();
  });

  /** Whether the executor still tracks the attempt of `instanceId` with `fencingToken` (it drops it when that attempt has ended). */
  const tracks = (instanceId: string, fencingToken: number) =>
    executor.app.get(TaskRunner).running.has(`${instanceId}#${fencingToken}`);

  it('should still abort the second attempt on cancel after the first one ended on the same node', async () => {
    expect(
      (await client.submitTask({ requestId: 'r-1', handler: 'reclaim.hold', maxAttempts: 3, timeoutMs: 600_000 }))
        .status,
    ).toBe(202);
    await waitFor('attempt 1 to start', async () => started.has(1), 30_000, 20);
    // The lease ran out (a node that beats but hangs): the reconciler takes the row back as attempt 2.
    await api.ds.query('UPDATE job_instance SET lease_until = 1 WHERE namespace = ? AND request_id = ?', [ns, 'r-1']);
    await waitFor('attempt 2 to start on the same node', async () => started.has(2), 30_000, 20);
    releaseFirst();
    // Attempt 1's finishing write is rejected (stale token) and it ends: waited for (a fixed 1 s could pass
    // before it on a loaded machine, and the cancel below would then not test the case at all).
    const first = started.get(1) as JobContext;
    await waitFor(
      'attempt 1 to end on the node',
      async () => !tracks(first.instanceId, first.fencingToken),
      30_000,
      20,
    );
    expect(tracks(first.instanceId, (started.get(2) as JobContext).fencingToken)).toBe(true);
    expect((await client.request('POST', '/api/tasks/r-1/cancel')).status).toBeLessThan(300);
    await waitFor('attempt 2 to be aborted', async () => aborted.has(2), 30_000, 20).catch(() => undefined);
    expect(aborted.get(2)).toBe('REVOKED');
    await waitFor(
      'attempt 2 closed',
      async () => {
        const rows: Array<{ attempt: number; status: string }> = await api.ds.query(
          `SELECT a.attempt, a.status FROM job_attempt a JOIN job_instance i ON i.id = a.instance_id
          WHERE i.namespace = ? AND i.request_id = ? ORDER BY a.attempt`,
          [ns, 'r-1'],
        );
        return rows.length === 2 && rows[1].status !== 'RUNNING';
      },
      30_000,
    );
    expect((await client.getTask('r-1')).body.status).toBe('CANCELLED');
  }, 150_000);

  it('should keep the maxConcurrency slot of the re-claimed attempt when the revoked one ends', async () => {
    const redis = new Redis(REDIS_URL);
    try {
      const jobId = (
        await createJob(client, {
          code: 'limited',
          handler: 'reclaim.limited',
          maxConcurrency: 1,
          timeoutMs: 600_000,
          retryMax: 2,
        })
      ).id;
      const semaphore = `{tw:${ns}}:sem:job:${jobId}`;
      const rows = async () =>
        (await api.ds.query(
          'SELECT id, status, attempt FROM job_instance WHERE namespace = ? AND job_id = ? ORDER BY created_at',
          [ns, jobId],
        )) as Array<{ id: string; status: string; attempt: number }>;
      expect((await client.request('POST', '/api/jobs/limited/trigger', {})).status).toBe(202);
      await waitFor('attempt 1 to run', async () => limitedSeen.length === 1, 30_000, 20);
      const id = limitedSeen[0].instanceId;
      await api.ds.query('UPDATE job_instance SET lease_until = 1 WHERE id = ?', [id]);
      await waitFor('attempt 2 to run', async () => limitedSeen.some((s) => s.attempt === 2), 30_000, 20);
      await waitFor(
        'attempt 1 to end (revoked)',
        async () => {
          const a: Array<{ c: number | string }> = await api.ds.query(
            "SELECT COUNT(*) AS c FROM job_attempt WHERE instance_id = ? AND status <> 'RUNNING'",
            [id],
          );
          return Number(a[0].c) === 1;
        },
        30_000,
      );
      // A beat aborts attempt 1 here and its end runs its clean-up; the reconciler's next pass would re-assert
      // the holder, so the semaphore is watched closely, not once: for 2 s and until attempt 1 has ended on the
      // node (and a little after), however long that takes on a loaded machine.
      const seen = new Set<string>();
      const since = Date.now();
      let endedAt = 0;
      while (Date.now() - since < 2000 || endedAt === 0 || Date.now() - endedAt < 300) {
        if (Date.now() - since > 30_000) throw new Error('attempt 1 of the limited fire never ended on the node');
        if (endedAt === 0 && !tracks(id, 1)) endedAt = Date.now();
        seen.add((await redis.zrange(semaphore, 0, -1)).filter((m) => m !== '~known').join()); // '~known': the semaphore's own mark
        await sleep(10); // sampling: the semaphore watched closely
      }
      expect([...seen]).toEqual([id]);
      await sleep(5); // manual fires are keyed by their millisecond
      expect((await client.request('POST', '/api/jobs/limited/trigger', {})).status).toBe(202);
      await waitFor('the second fire to be written', async () => (await rows()).length === 2, 30_000);
      // Its admission decided (it was a fixed 1.5 s): it must wait for the slot attempt 2 holds.
      await waitFor('the second fire admitted or held', async () => (await rows())[1].status !== 'PENDING', 30_000, 50);
      expect((await rows()).map((r) => r.status)).toEqual(['RUNNING', 'WAITING']);
      expect(limitedSeen.filter((s) => s.instanceId !== id)).toEqual([]);
    } finally {
      redis.disconnect();
    }
  }, 150_000);
});
