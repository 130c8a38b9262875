import type { Redis } from 'ioredis';
import { COORDINATION, type CoordinationPort, jobSlots, REDIS_CLIENT } from '../../src/modules/coordination/index.js';
import { CancelService } from '../../src/modules/dispatch/index.js';
import {
  JobAttemptRepository,
  JobInstance,
  JobInstanceStatus as S,
  newJobInstance,
  TriggerSource,
} from '../../src/modules/metadata/index.js';
import { clusterEnv, signedClient, startNode, TestNode, uniqueNamespace, waitFor } from '../utils/test-node.js';
import { neverFiringJob } from '../utils/jobs.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import { instanceQueries, type InstanceQueries } from '../utils/metadata-db.js';

const HEARTBEAT_MS = 2000;
/** The executor's stop grace: as long as a silent node's running instance keeps its slot, NODE_OFFLINE_AFTER_MS (≥ two heartbeats). */
const OFFLINE_MS = 5000;

/**
 * Cancel of a RUNNING instance of a limited job whose executor never answers (docs/execution.md): the canceller keeps
 * the instance's slot, cut to NODE_OFFLINE_AFTER_MS (the executor would free it once its handler stopped), and does
 * not release the next WAITING instance itself; once the holder expired, the leader's pass releases it and
 * dispatch admits it. The node runs the api and scheduler roles and no executor: the RUNNING row's node
 * ("ghost") is nobody, and a registered fake node that never claims takes what dispatch routes.
 */
describe('cancel of a RUNNING limited instance with no executor to stop it (MariaDB, Redis)', () => {
  const ns = uniqueNamespace('int-cancel-slot');
  let node: TestNode;
  let instances: InstanceQueries;
  let redis: Redis;

  beforeAll(async () => {
    node = await startNode(
      clusterEnv(ns, {
        ROLES: 'api,scheduler',
        HEARTBEAT_INTERVAL_MS: String(HEARTBEAT_MS),
        NODE_OFFLINE_AFTER_MS: String(OFFLINE_MS),
      }),
    );
    instances = instanceQueries(node.app);
    redis = node.app.get(REDIS_CLIENT);
  }, 30_000);

  afterAll(async () => {
    await deleteNamespaceRows(node?.ds, ns);
    await node?.close();
  });

  async function row(jobId: string, status: S, fireTime: number, nodeId: string | null): Promise<JobInstance> {
    const r = Object.assign(
      newJobInstance(
        { namespace: ns, appId: 'int', handler: 'h', fireTime, triggerSource: TriggerSource.SCHEDULE, dueAt: fireTime },
        fireTime,
      ),
      {
        jobId,
        status,
        maxConcurrency: 1,
        nodeId,
        ...(status === S.WAITING ? { error: 'MAX_CONCURRENCY' } : {}),
        ...(status === S.RUNNING ? { leaseUntil: fireTime + 600_000, startedAt: fireTime } : {}),
      } as Partial<JobInstance>,
    );
    await instances.fires.insertIgnore(node.ds.manager, [r as JobInstance]);
    return (await instances.reads.findById(r.id as string)) as JobInstance;
  }

  it('should hold the slot for the stop grace, then let the leader release the waiting instance', async () => {
    const client = await signedClient(node);
    const created = await client.request<{ id: string }>('POST', '/api/jobs', {
      ...neverFiringJob('held', 'h'),
      maxConcurrency: 1,
    });
    expect(created.status).toBe(201);
    const jobId = created.body.id;
    const now = Date.now();
    const running = await row(jobId, S.RUNNING, now - 2000, 'ghost');
    const waiting = await row(jobId, S.WAITING, now - 1000, null);
    const coordination = node.app.get<CoordinationPort>(COORDINATION);
    await coordination.seedSlots(jobSlots(jobId), [running.id], 600_000, Date.now());
    const beat = () =>
      coordination.heartbeat(
        'taker-20260101-1',
        { handlers: ['h'], capacity: 4, active: 0, labels: {}, host: 'x', startedAt: 1 },
        Date.now(),
      );
    await beat();
    const beating = setInterval(() => void beat(), 1000); // the taker stays live past the grace
    const semaphore = `{tw:${ns}}:sem:job:${jobId}`;

    const cancels = node.app.get(CancelService);
    const before = Date.now();
    expect(await cancels.cancel(running, 'cancelled by int')).toBe(true);
    const after = Date.now();
    // Its attempt had no row (the executor writes one at the attempt's end): the cancel wrote it, closed.
    const trail = await node.app.get(JobAttemptRepository).listForInstance(running.id);
    expect(trail.map((a) => [a.status, a.nodeId, a.error])).toEqual([['CANCELLED', 'ghost', 'cancelled by int']]);
    // The canceller released nothing: the slot is still held (for the grace now), the next still waits.
    expect((await instances.reads.findById(waiting.id))?.status).toBe(S.WAITING);
    const expiry = Number(await redis.zscore(semaphore, running.id));
    expect(expiry).toBeGreaterThanOrEqual(before + OFFLINE_MS);
    expect(expiry).toBeLessThanOrEqual(after + OFFLINE_MS);

    // Released (PENDING) by a pass, it is dispatched only once admitted: after the holder's expiry.
    await waitFor(
      'the waiting instance dispatched once the holder expired',
      async () => (await instances.reads.findById(waiting.id))?.status === S.DISPATCHED,
      30_000,
      50,
    ).finally(() => clearInterval(beating));
    expect(Date.now()).toBeGreaterThanOrEqual(expiry);
    expect((await redis.zrange(semaphore, 0, -1)).filter((m) => m !== '~known')).toEqual([waiting.id]);
    expect((await instances.reads.findById(running.id))?.status).toBe(S.CANCELLED);
  }, 60_000);
});
