import { jest } from '@jest/globals';
import type { Redis } from 'ioredis';
import { TimeoutMode } from '../../src/common/index.js';
import { COORDINATION, type CoordinationPort, jobSlots, REDIS_CLIENT } from '../../src/modules/coordination/index.js';
import { Admission, CancelService } from '../../src/modules/dispatch/index.js';
import {
  JobAttemptRepository,
  JobInstance,
  JobInstanceStatus as S,
  newJobInstance,
  TriggerSource,
} from '../../src/modules/metadata/index.js';
import { clusterEnv, signedClient, startNode, TestNode, uniqueNamespace } from '../utils/test-node.js';
import { neverFiringJob } from '../utils/jobs.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import { instanceQueries } from '../utils/metadata-db.js';

/**
 * Cancel of a RUNNING limited instance (docs/execution.md) whose executor stops the handler before the canceller has cut
 * the slot's expiry — its heartbeat check saw the CANCELLED row first, ended the stop grace and freed the slot.
 * The cut (an acquire whatever the limit) then put the holder back, for the whole grace: the job's next
 * instances waited that long (NODE_OFFLINE_AFTER_MS) for a handler that had long stopped. Only the api role runs.
 */
describe("a cancelled limited instance's slot: cut late, re-asserted (MariaDB, Redis)", () => {
  const ns = uniqueNamespace('int-cutlate');
  let node: TestNode;

  beforeAll(async () => {
    node = await startNode(clusterEnv(ns, { ROLES: 'api', NODE_OFFLINE_AFTER_MS: '60000' }));
  }, 30_000);
  afterAll(async () => {
    await deleteNamespaceRows(node?.ds, ns);
    await node?.close();
  });

  it('leaves no holder behind', async () => {
    const instances = instanceQueries(node.app);
    const coordination = node.app.get<CoordinationPort>(COORDINATION);
    const redis = node.app.get<Redis>(REDIS_CLIENT);
    const client = await signedClient(node);
    const created = await client.request<{ id: string }>('POST', '/api/jobs', {
      ...neverFiringJob('cut', 'h'),
      maxConcurrency: 1,
    });
    expect(created.status).toBe(201);
    const jobId = created.body.id;
    const t = Date.now();
    const r = Object.assign(
      newJobInstance(
        { namespace: ns, appId: 'int', handler: 'h', fireTime: t, triggerSource: TriggerSource.SCHEDULE, dueAt: t },
        t,
      ),
      {
        jobId,
        status: S.RUNNING,
        maxConcurrency: 1,
        nodeId: 'x',
        fencingToken: 3,
        leaseUntil: t + 600_000,
        startedAt: t,
      } as Partial<JobInstance>,
    ) as JobInstance;
    await instances.fires.insertIgnore(node.ds.manager, [r]);
    await coordination.seedSlots(jobSlots(jobId), [r.id], 600_000, Date.now());
    const running = (await instances.reads.findById(r.id)) as JobInstance;

    // The executor's side, landing between the canceller's write and its cut: end the grace, free the slot.
    const attempts = node.app.get(JobAttemptRepository);
    const finish = attempts.finish.bind(attempts);
    const spy = jest
      .spyOn(attempts, 'finish')
      .mockImplementation(async (...args: Parameters<typeof attempts.finish>) => {
        const out = await finish(...args);
        await instances.admission.clearCancelledLease(r.id, 3);
        await coordination.releaseSlot(jobSlots(jobId), r.id);
        return out;
      });
    try {
      expect(await node.app.get(CancelService).cancel(running, 'test')).toBe(true);
    } finally {
      spy.mockRestore();
    }
    expect((await redis.zrange(`{tw:${ns}}:sem:job:${jobId}`, 0, -1)).filter((m) => m !== '~known')).toEqual([]);
  });

  // The leader's pass re-asserts the slots of the DISPATCHED/RUNNING rows it read (Admission.reassert) and gives back
  // those of rows that left since. A row it read RUNNING just before a cancel has left, but its handler may still be
  // stopping: its slot must stay until the stop grace ends (released, it went to a new instance beside the stopping
  // handler); a row that really ended gives it back.
  it('keeps a stopping holder until its grace, frees an ended one', async () => {
    const instances = instanceQueries(node.app);
    const coordination = node.app.get<CoordinationPort>(COORDINATION);
    const redis = node.app.get<Redis>(REDIS_CLIENT);
    const client = await signedClient(node);
    const created = await client.request<{ id: string }>('POST', '/api/jobs', {
      ...neverFiringJob('ra', 'h'),
      maxConcurrency: 2,
    });
    expect(created.status).toBe(201);
    const jobId = created.body.id;
    const t = Date.now();
    const make = (fireTime: number, leaseUntil: number | null) =>
      Object.assign(
        newJobInstance(
          {
            namespace: ns,
            appId: 'int',
            handler: 'h',
            fireTime,
            triggerSource: TriggerSource.SCHEDULE,
            dueAt: fireTime,
          },
          fireTime,
        ),
        {
          jobId,
          status: S.CANCELLED,
          maxConcurrency: 2,
          nodeId: 'x',
          leaseUntil,
          finishedAt: t,
        } as Partial<JobInstance>,
      ) as JobInstance;
    const stopping = make(t - 2, t + 30_000);
    const ended = make(t - 1, null);
    await instances.fires.insertIgnore(node.ds.manager, [stopping, ended]);
    await coordination.seedSlots(jobSlots(jobId), [stopping.id, ended.id], 30_000, t);
    // The pass's read, taken while both still ran.
    const read = [stopping, ended].map((r) => ({
      id: r.id,
      jobId,
      status: S.RUNNING,
      maxConcurrency: 2,
      timeoutMs: 60_000,
      timeoutMode: TimeoutMode.HARD,
    }));
    await node.app.get(Admission).reassert(read, Date.now());
    const semaphore = `{tw:${ns}}:sem:job:${jobId}`;
    expect((await redis.zrange(semaphore, 0, -1)).filter((m) => m !== '~known')).toEqual([stopping.id]);
    expect(Number(await redis.zscore(semaphore, stopping.id))).toBe(t + 30_000);
  });
});
