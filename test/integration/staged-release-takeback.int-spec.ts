import { Redis } from 'ioredis';
import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { RedisKeys } from '../../src/modules/coordination/index.js';
import { ReconcilerService, type Release } from '../../src/modules/dispatch/index.js';
import { StagedTakeback } from '../../src/modules/trigger/staged-takeback.js';
import { TriggerService } from '../../src/modules/trigger/trigger.service.js';
import { waitFor } from '../utils/async.js';
import { neverFiringJob } from '../utils/jobs.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import { clusterEnv, REDIS_URL, signedClient, startNode, TestNode, uniqueNamespace } from '../utils/test-node.js';

const POLICIES = ['FIRE_ALL', 'FIRE_ONCE_NOW', 'SKIP'] as const;
type Policy = (typeof POLICIES)[number];

interface LedgerRow {
  id: string;
  fire_time: string | number;
  trigger_source: string;
  status: string;
  staged: string | null;
  error: string | null;
}

/**
 * The takeback a new leader runs (docs/trigger.md "Staging") tells a staged fire the previous leader never released
 * from one it released on time that still waits, PENDING, for an executor of its handler: the first goes to the
 * misfire policy, the second is left alone and runs once an executor comes. The node never leads (another owner
 * holds the leader lock): the test plays the previous leader (stages and releases) and the new one (takes back).
 */
describe('takeback of staged fires across a leader change (MariaDB + Redis)', () => {
  const ns = uniqueNamespace('int-relback');
  const lock = new RedisKeys(ns).lock('leader');
  let redis: Redis;
  let scheduler: TestNode;
  let executor: TestNode | undefined;
  let client: TickwheelClient;
  /** Per policy, the job whose staged fire was never released and the one whose fire was released. */
  const jobs = new Map<Policy, { unreleased: string; released: string; stagedIds: Map<string, string> }>();
  let fireTime = 0;
  let taken = 0;

  const rowsOf = async (jobId: string): Promise<LedgerRow[]> =>
    scheduler.ds.query(
      'SELECT id, fire_time, trigger_source, status, staged, error FROM job_instance WHERE job_id = ? ORDER BY fire_time',
      [jobId],
    );

  /**
   * A stageable job on `policy` whose fire at `fireTime` the previous leader staged 2.5 s ahead.
   * @returns the job, its staged row and the row's release.
   */
  async function stagedFire(code: string, policy: Policy): Promise<{ jobId: string; rowId: string; release: Release }> {
    const res = await client.request<{ id: string }>(
      'POST',
      '/api/jobs',
      neverFiringJob(code, 'noop', { misfirePolicy: policy }),
    );
    expect(res.status).toBe(201);
    const jobId = res.body.id;
    await scheduler.ds.query('UPDATE job_definition SET next_fire_time = ? WHERE id = ?', [fireTime, jobId]);
    const trigger = scheduler.app.get(TriggerService);
    const fired = await trigger.fireRefs([{ id: jobId, next: fireTime }], fireTime - 2500);
    expect(fired.created).toBe(1);
    const [row] = await rowsOf(jobId);
    // No executor serves noop in this namespace: staged unrouted.
    expect([row.status, row.staged, row.trigger_source, Number(row.fire_time)]).toEqual([
      'PENDING',
      'FIRE',
      'SCHEDULE',
      fireTime,
    ]);
    return { jobId, rowId: row.id, release: fired.releases[0] };
  }

  beforeAll(async () => {
    redis = new Redis(REDIS_URL);
    await redis.set(lock, 'someone-else', 'PX', 600_000);
    scheduler = await startNode(
      clusterEnv(ns, { ROLES: 'api,scheduler', MISFIRE_THRESHOLD_MS: '5000', RECONCILE_INTERVAL_MS: '600000' }),
    );
    client = await signedClient(scheduler);
    fireTime = Date.now() - 10_000; // more than MISFIRE_THRESHOLD_MS ago when the new leader looks
    const trigger = scheduler.app.get(TriggerService);
    for (const policy of POLICIES) {
      const code = policy.toLowerCase().replace(/_/g, '-');
      const unreleased = await stagedFire(`${code}-unreleased`, policy);
      const released = await stagedFire(`${code}-released`, policy);
      // Released at its time: its id is dispatched, nobody can run it, so it stays PENDING.
      await trigger.release([released.release]);
      const stagedIds = new Map([
        [unreleased.jobId, unreleased.rowId],
        [released.jobId, released.rowId],
      ]);
      jobs.set(policy, { unreleased: unreleased.jobId, released: released.jobId, stagedIds });
    }
    taken = await scheduler.app.get(StagedTakeback).run();
  }, 60_000);

  afterAll(async () => {
    await executor?.close();
    if (scheduler) await deleteNamespaceRows(scheduler.ds, ns);
    await scheduler?.close();
    await redis?.del(lock);
    redis?.disconnect();
  });

  it('should take back exactly the three fires that were never released', () => {
    expect(taken).toBe(3);
  });

  it.each(POLICIES)('%s: should hand a staged fire never released to the misfire policy', async (policy) => {
    const { unreleased, stagedIds } = jobs.get(policy)!;
    const rows = await rowsOf(unreleased);
    expect(rows.map((r) => r.id)).not.toContain(stagedIds.get(unreleased));
    expect(rows.map((r) => [Number(r.fire_time), r.trigger_source, r.status])).toEqual([
      [fireTime, 'MISFIRE', policy === 'SKIP' ? 'CANCELLED' : 'PENDING'],
    ]);
    if (policy === 'SKIP') expect(rows[0].error).toMatch(/^MISFIRE_SKIP: /);
  });

  it.each(POLICIES)('%s: should leave a released fire waiting for an executor as it is', async (policy) => {
    const { released, stagedIds } = jobs.get(policy)!;
    const rows = await rowsOf(released);
    expect(rows.map((r) => [r.id, Number(r.fire_time), r.trigger_source, r.status, r.staged])).toEqual([
      [stagedIds.get(released), fireTime, 'SCHEDULE', 'PENDING', null], // its release cleared the mark
    ]);
  });

  it('should run the released fires once an executor of their handler comes', async () => {
    executor = await startNode(clusterEnv(ns, { ROLES: 'executor' }));
    const reconciler = scheduler.app.get(ReconcilerService);
    const ids = POLICIES.map((p) => jobs.get(p)!).map((j) => j.stagedIds.get(j.released) as string);
    await waitFor(
      'the released fires to run',
      async () => {
        await reconciler.reconcileOnce(); // the new leader's repair pass dispatches forgotten PENDING rows
        const rows: Array<{ status: string }> = await scheduler.ds.query(
          `SELECT status FROM job_instance WHERE id IN (?, ?, ?)`,
          ids,
        );
        return rows.length === 3 && rows.every((r) => r.status === 'SUCCESS');
      },
      20_000,
      200,
    );
  }, 40_000);
});
