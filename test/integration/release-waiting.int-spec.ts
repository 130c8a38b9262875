import { WaitingTurns } from '../../src/modules/dispatch/index.js';
import {
  JobInstance,
  JobInstanceStatus as S,
  newJobInstance,
  TriggerSource,
} from '../../src/modules/metadata/index.js';
import { clusterEnv, signedClient, startNode, TestNode, uniqueNamespace } from '../utils/test-node.js';
import { neverFiringJob } from '../utils/jobs.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import { instanceQueries, type InstanceQueries } from '../utils/metadata-db.js';

/**
 * Release of a job's next WAITING instance (docs/trigger.md QUEUE overlap, §7 maxConcurrency) on MariaDB: a
 * retry waiting out its backoff (PENDING, due later) holds no maxConcurrency slot, so it must not keep the
 * waiting instances of a limited job from running; under QUEUE overlap fires run one at a time, so the
 * same retry does keep the next fire waiting. The node runs the api role only: nothing else moves the rows.
 */
describe('WaitingTurns.promoteNext (MariaDB)', () => {
  const ns = uniqueNamespace('int-release');
  let node: TestNode;
  let instances: InstanceQueries;
  let turns: WaitingTurns;

  beforeAll(async () => {
    node = await startNode(clusterEnv(ns, { ROLES: 'api' }));
    instances = instanceQueries(node.app);
    turns = node.app.get(WaitingTurns);
  }, 30_000);

  afterAll(async () => {
    await deleteNamespaceRows(node?.ds, ns);
    await node?.close();
  });

  async function job(code: string, extra: Record<string, unknown>): Promise<string> {
    const client = await signedClient(node);
    const res = await client.request<{ id: string }>('POST', '/api/jobs', { ...neverFiringJob(code, 'h'), ...extra });
    expect(res.status).toBe(201);
    return res.body.id;
  }

  /** A row of `jobId` in `status`, due at `dueAt`, fired at `fireTime` (plus `extra`). */
  async function row(
    jobId: string,
    status: S,
    fireTime: number,
    dueAt: number,
    maxConcurrency: number,
    extra: Partial<JobInstance> = {},
  ): Promise<string> {
    const r = Object.assign(
      newJobInstance(
        { namespace: ns, appId: 'int', handler: 'h', fireTime, triggerSource: TriggerSource.SCHEDULE, dueAt },
        fireTime,
      ),
      {
        jobId,
        status,
        maxConcurrency,
        ...(status === S.WAITING ? { error: 'MAX_CONCURRENCY' } : {}),
        ...extra,
      } as Partial<JobInstance>,
    );
    await instances.fires.insertIgnore(node.ds.manager, [r as JobInstance]);
    return r.id as string;
  }

  it("should release a limited job's waiting instance while its only other instance waits out a retry backoff", async () => {
    const now = Date.now();
    const jobId = await job('limited-1', { maxConcurrency: 1 });
    await row(jobId, S.PENDING, now - 2000, now + 60_000, 1); // attempt 2 due in a minute
    const waiting = await row(jobId, S.WAITING, now - 1000, now - 1000, 1);
    expect((await turns.promoteNext(jobId, now))?.id).toBe(waiting);
    expect((await instances.reads.findById(waiting))?.status).toBe(S.PENDING);
  });

  it('should not release it while another instance is due, dispatched or running', async () => {
    const now = Date.now();
    for (const [code, status, dueAt] of [
      ['limited-2', S.PENDING, now - 10],
      ['limited-3', S.DISPATCHED, now],
      ['limited-4', S.RUNNING, now],
    ] as const) {
      const jobId = await job(code, { maxConcurrency: 1 });
      await row(jobId, status, now - 2000, dueAt, 1);
      const waiting = await row(jobId, S.WAITING, now - 1000, now - 1000, 1);
      expect(await turns.promoteNext(jobId, now)).toBeNull();
      expect((await instances.reads.findById(waiting))?.status).toBe(S.WAITING);
    }
  });

  it('should count an instance another releaser released after this caller read its clock (two releases for one slot)', async () => {
    const now = Date.now();
    const jobId = await job('limited-5', { maxConcurrency: 1 });
    const first = await row(jobId, S.WAITING, now - 2000, now - 2000, 1);
    const second = await row(jobId, S.WAITING, now - 1000, now - 1000, 1);
    const releasedAt = Date.now();
    expect((await turns.promoteNext(jobId, releasedAt))?.id).toBe(first); // released, due at releasedAt
    expect(await turns.promoteNext(jobId, releasedAt - 5)).toBeNull(); // a caller whose clock read came earlier
    expect((await instances.reads.findById(second))?.status).toBe(S.WAITING);
  });

  it("should keep a QUEUE job's next fire waiting while the previous one waits out its retry backoff", async () => {
    const now = Date.now();
    const jobId = await job('queued', { overlapPolicy: 'QUEUE', maxConcurrency: 1 });
    await row(jobId, S.PENDING, now - 2000, now + 60_000, 1);
    const waiting = await row(jobId, S.WAITING, now - 1000, now - 1000, 1);
    expect(await turns.promoteNext(jobId, now)).toBeNull();
    expect((await instances.reads.findById(waiting))?.status).toBe(S.WAITING);
  });

  // A RUNNING instance is cancelled with lease_until = the end of its executor's stop grace (docs/admission.md):
  // until the executor reports the handler stopped (Admission.ended) or the grace runs out, the cancelled row
  // keeps its job's QUEUE turn and maxConcurrency place.
  it.each([
    ['QUEUE', { overlapPolicy: 'QUEUE' }, 0],
    ['limit 1', { maxConcurrency: 1 }, 1],
  ] as const)(
    "%s: a cancelled instance in its stop grace keeps the next waiting; its executor's end of the grace, or the grace running out, releases it",
    async (_what, settings, limit) => {
      const now = Date.now();
      const jobId = await job(`sg-${limit}`, settings);
      const cancelled = await row(jobId, S.CANCELLED, now - 2000, now - 2000, limit, {
        leaseUntil: now + 60_000,
        fencingToken: 7,
      });
      const waiting = await row(jobId, S.WAITING, now - 1000, now - 1000, limit, { error: 'waits' });
      expect(await turns.promoteNext(jobId, now)).toBeNull();
      await instances.admission.clearCancelledLease(cancelled, 6); // an older attempt of the instance: not the one cancelled
      expect(await turns.promoteNext(jobId, now)).toBeNull();
      expect(await turns.promoteNext(jobId, now + 60_001)).not.toBeNull(); // grace over (executor dead)
      await node.ds.query('UPDATE job_instance SET status = ? WHERE id = ?', [S.WAITING, waiting]);
      await instances.admission.clearCancelledLease(cancelled, 7);
      expect((await turns.promoteNext(jobId, now))?.id).toBe(waiting);
    },
  );

  it("should keep a paused job's queued scheduled fires WAITING, release a trigger-now's fire, and all after resume", async () => {
    const now = Date.now();
    const jobId = await job('paused-queue', { overlapPolicy: 'QUEUE', enabled: false });
    const scheduled = await row(jobId, S.WAITING, now - 3000, now - 3000, 0);
    const manual = await row(jobId, S.WAITING, now - 2000, now - 2000, 0, { triggerSource: TriggerSource.MANUAL });
    expect((await turns.promoteNext(jobId, now))?.id).toBe(manual);
    await node.ds.query("UPDATE job_instance SET status = 'SUCCESS' WHERE id = ?", [manual]);
    expect(await turns.promoteNext(jobId, now)).toBeNull();
    expect((await instances.reads.findById(scheduled))?.status).toBe(S.WAITING);
    await node.ds.query('UPDATE job_definition SET enabled = ? WHERE id = ?', [true, jobId]);
    expect((await turns.promoteNext(jobId, now))?.id).toBe(scheduled);
  });
});
