import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { Redis } from 'ioredis';
import { COORDINATION, type CoordinationPort, jobSlots, RedisKeys } from '../../src/modules/coordination/index.js';
import { Admission, CancelService, DispatchService, ReconcilerService } from '../../src/modules/dispatch/index.js';
import {
  JobInstance,
  JobInstanceStatus as S,
  newJobInstance,
  TriggerSource,
} from '../../src/modules/metadata/index.js';
import { clusterEnv, REDIS_URL, startNode, TestNode, uniqueNamespace } from '../utils/test-node.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import { instanceQueries, type InstanceQueries } from '../utils/metadata-db.js';

/**
 * Repair steps of the leader's reconciler on the real MariaDB and Redis.
 * - Step 5 (docs/data-model.md, docs/dispatch.md): a DISPATCHED row whose id is in neither list of its node is pushed again, once;
 *   ids legitimately queued, and rows an executor claimed meanwhile, are left alone. Membership is decided
 *   by one snapshot of each node's lists (queuedIds), not by a check per row: with thousands of queued ids
 *   a per-row LPOS cost most of a pass.
 * - Step 0 (docs/execution.md): DISPATCHED and RUNNING instances of a limited job hold their semaphore slot again
 *   (whatever the limit: they run) in the semaphores Redis still knows; when the limit is exceeded the pass
 *   warns and goes on. A semaphore Redis does not know is left to dispatch, which rebuilds it from a read
 *   of its own before it admits anyone: the pass's read may predate the loss.
 *
 * The node runs the api role only, so no leader loop or executor touches the rows: the test drives the
 * passes and plays the executor itself. The fake nodes beat before each pass, so they count as live.
 */
describe('ReconcilerService repair steps (MariaDB + Redis)', () => {
  const ns = uniqueNamespace('int-reconcile');
  let node: TestNode;
  let redis: Redis;
  let sut: ReconcilerService;
  let coordination: CoordinationPort;
  let instances: InstanceQueries;
  // One pass is 10 minutes here: rows dispatched "now" stay younger than one pass however slowly a loaded
  // machine runs the test (with 1 s they became old before the second pass, and step 5 pushed them).
  const OLD = Date.now() - 3_600_000; // dispatched well over one pass ago

  beforeAll(async () => {
    node = await startNode(
      clusterEnv(ns, { ROLES: 'api', NODE_OFFLINE_AFTER_MS: '600000', RECONCILE_INTERVAL_MS: '600000' }),
    );
    redis = new Redis(REDIS_URL);
    sut = node.app.get(ReconcilerService);
    coordination = node.app.get<CoordinationPort>(COORDINATION);
    instances = instanceQueries(node.app);
  });

  afterEach(async () => {
    jest.restoreAllMocks();
    await deleteNamespaceRows(node.ds, ns);
    for (const n of ['n1', 'n2']) await coordination.drainNode(`${ns}-${n}`);
  });

  afterAll(async () => {
    for (const n of ['n1', 'n2']) await coordination?.removeNode(`${ns}-${n}`);
    redis?.disconnect();
    await node?.close();
  });

  /** `count` rows on `nodeId`, dispatched at `at`, DISPATCHED unless `patch` says otherwise. */
  async function dispatched(
    nodeId: string,
    count: number,
    at = OLD,
    patch: Partial<JobInstance> = {},
  ): Promise<string[]> {
    const rows = Array.from({ length: count }, (_, i) =>
      Object.assign(
        newJobInstance(
          { namespace: ns, appId: 'int', handler: 'h', fireTime: at + i, triggerSource: TriggerSource.API, dueAt: at },
          at,
        ),
        { status: S.DISPATCHED, nodeId, dispatchedAt: at, ...patch },
      ),
    );
    await instances.fires.insertIgnore(node.ds.manager, rows);
    return rows.map((r) => r.id);
  }

  /** One leader pass, with the fake nodes beating first. */
  async function pass(...nodes: string[]): Promise<void> {
    const now = Date.now();
    for (const n of nodes)
      await coordination.heartbeat(
        n,
        { handlers: ['h'], capacity: 1, active: 0, labels: {}, host: 'x', startedAt: now },
        now,
      );
    await sut.reconcileOnce();
  }

  const keys = new RedisKeys(ns);
  /** The node's ready list of the rows' app ('int'). */
  const ready = (nodeId: string) => redis.lrange(keys.readyApp(nodeId, 'int'), 0, -1);
  const items = (ids: string[]) => ids.map((id) => ({ id, appId: 'int' }));
  const occurrences = (list: string[], id: string) => list.filter((x) => x === id).length;

  it('should push a lost id exactly once, and leave queued, claimed, late-pushed and young rows alone', async () => {
    const [n1, n2] = [`${ns}-n1`, `${ns}-n2`];
    const [claimed] = await dispatched(n1, 1);
    const queued = await dispatched(n1, 30);
    const [inProcessing] = await dispatched(n1, 1);
    const [lost1] = await dispatched(n1, 1);
    const [late] = await dispatched(n1, 1);
    const [young] = await dispatched(n1, 1, Date.now()); // dispatched this pass: its push may still be on its way
    const [lost2] = await dispatched(n2, 1);
    await coordination.pushReady(n1, items([claimed, ...queued, inProcessing]));
    // An executor holds one claimed id of the node (claimed, row not yet RUNNING): the processing list counts.
    const real = coordination.queuedIds.bind(coordination);
    let first = true;
    jest.spyOn(coordination, 'queuedIds').mockImplementation(async (nodeId: string) => {
      if (nodeId !== n1 || !first) return real(nodeId);
      first = false;
      // Between the candidate read and the snapshot, an executor claims, runs and acks `claimed`.
      expect(await coordination.claim(n1, 0)).toBe(claimed);
      const claimRow = (await instances.reads.findById(claimed)) as JobInstance;
      expect(
        await instances.transitions.transition(
          claimed,
          S.DISPATCHED,
          S.RUNNING,
          { nodeId: n1 },
          { fencingToken: 1 },
          Date.now(),
        ),
      ).toBe(true);
      expect(
        await instances.transitions.transition(
          claimed,
          S.RUNNING,
          S.SUCCESS,
          { attempt: claimRow.attempt },
          { finishedAt: Date.now() },
          Date.now(),
        ),
      ).toBe(true);
      await coordination.ack(n1, claimed);
      // Then `inProcessing` is claimed (moved to processing), and the snapshot is taken.
      await redis.lrem(keys.readyApp(n1, 'int'), 1, inProcessing);
      await redis.rpush(keys.processing(n1), inProcessing);
      const snapshot = await real(nodeId);
      // Right after the snapshot, a late push of `late` lands (its row is still DISPATCHED): the second look must see it.
      await coordination.pushReady(n1, items([late]));
      return snapshot;
    });

    await pass(n1, n2);
    await pass(n1, n2); // the second pass finds the pushed ids queued: nothing is pushed twice

    const list1 = await ready(n1);
    expect(occurrences(list1, lost1)).toBe(1);
    expect(occurrences(list1, late)).toBe(1);
    expect(occurrences(list1, claimed)).toBe(0);
    expect(occurrences(list1, inProcessing)).toBe(0);
    expect(occurrences(list1, young)).toBe(0);
    expect(queued.every((id) => occurrences(list1, id) === 1)).toBe(true);
    expect(list1).toHaveLength(queued.length + 2);
    expect(await ready(n2)).toEqual([lost2]);
    expect((await instances.reads.findById(claimed))?.status).toBe(S.SUCCESS);
  }, 30_000);

  it('should count and log apart the instances of a lost node routed again and those that ended FAILED', async () => {
    const lost = `${ns}-n1`;
    const longAgo = Date.now() - 700_000; // beyond NODE_OFFLINE_AFTER_MS (10 min): the node is stale
    await coordination.heartbeat(
      lost,
      { handlers: ['h'], capacity: 1, active: 2, labels: {}, host: 'x', startedAt: longAgo },
      longAgo,
    );
    const running = { status: S.RUNNING, fencingToken: 1, startedAt: OLD, leaseUntil: Date.now() + 600_000 };
    const [again] = await dispatched(lost, 1, OLD, { ...running, attempt: 1, maxAttempts: 3 });
    const [last] = await dispatched(lost, 1, OLD, { ...running, attempt: 2, maxAttempts: 2 });
    const warn = jest.spyOn(Logger.prototype, 'warn');
    await sut.reconcileOnce();
    const routed = (await instances.reads.findById(again)) as JobInstance;
    // Routed again: PENDING when no fake node of an earlier test is still live, else DISPATCHED to it.
    expect([S.PENDING, S.DISPATCHED]).toContain(routed.status);
    expect([routed.attempt, routed.nodeId === lost]).toEqual([2, false]);
    expect((await instances.reads.findById(last))?.status).toBe(S.FAILED);
    const said = warn.mock.calls.map(([m]) => String(m)).filter((m) => m.includes(`node ${lost} offline`));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('1 routed again, 1 FAILED');
  }, 30_000);

  it("should read each node's lists once per pass, not once per row, when every id is queued", async () => {
    const [n1, n2] = [`${ns}-n1`, `${ns}-n2`];
    const on1 = await dispatched(n1, 200);
    const on2 = await dispatched(n2, 100);
    await coordination.pushReady(n1, items(on1.slice(20)));
    await coordination.pushReady(n1, items(on1.slice(0, 20)));
    expect(await coordination.claim(n1, 0)).not.toBeNull(); // one claimed
    await coordination.pushReady(n2, items(on2));
    const snapshots = jest.spyOn(coordination, 'queuedIds');

    await pass(n1, n2);

    expect(snapshots.mock.calls.map(([n]) => n).sort()).toEqual([n1, n2]);
    expect((await ready(n1)).length + (await redis.llen(keys.processing(n1)))).toBe(200);
    expect(await ready(n2)).toHaveLength(100);
  }, 30_000);

  it('should go round every job with WAITING instances, a page of 500 per pass, so none is starved of the release backstop', async () => {
    const jobs = Array.from({ length: 501 }, (_, i) => `${ns}-w${String(i).padStart(4, '0')}`);
    const now = Date.now();
    await instances.fires.insertIgnore(
      node.ds.manager,
      jobs.map((jobId, i) =>
        Object.assign(
          newJobInstance(
            {
              namespace: ns,
              appId: 'int',
              handler: 'h',
              fireTime: now + i,
              triggerSource: TriggerSource.SCHEDULE,
              dueAt: now,
            },
            now,
          ),
          { jobId, status: S.WAITING, maxConcurrency: 1 },
        ),
      ),
    );
    const released = jest.spyOn(node.app.get(Admission), 'promoteNext').mockResolvedValue(undefined as never);
    const perPass: string[][] = [];
    for (let i = 0; i < 3; i++) {
      released.mockClear();
      await pass();
      perPass.push(released.mock.calls.map(([jobId]) => String(jobId)));
    }
    expect(perPass.map((p) => p.length)).toEqual([500, 1, 500]);
    expect([...perPass[0], ...perPass[1]].sort()).toEqual(jobs);
  }, 60_000);

  describe('step 0: maxConcurrency slots', () => {
    const limited = (jobId: string, status: S) => ({
      jobId,
      maxConcurrency: 2,
      timeoutMs: 10_000,
      status,
      ...(status === S.RUNNING ? { startedAt: OLD, fencingToken: 1 } : {}),
    });
    const holders = async (jobId: string) =>
      await redis.zrange(`{tw:${ns}}:sem:${jobSlots(jobId)}`, 0, -1, 'WITHSCORES');

    it('should make running instances hold their slots again whatever the limit, warn naming the job when it is exceeded, and finish the pass', async () => {
      const n1 = `${ns}-n1`;
      const job = `${ns}-job-a`;
      const [a, b] = await dispatched(n1, 2, OLD, limited(job, S.RUNNING));
      const [x] = await dispatched(n1, 1, Date.now(), limited(job, S.DISPATCHED));
      const [lost] = await dispatched(n1, 1);
      // Redis knows only x, with a short expiry (a flush while x was being admitted): a and b run too.
      await coordination.seedSlots(jobSlots(job), [x], 1000, Date.now());
      const warn = jest.spyOn(Logger.prototype, 'warn');
      const t0 = Date.now();

      await pass(n1);

      const held = (await holders(job)).filter((_, i, all) => !(i % 2 === 0 ? all[i] : all[i - 1]).startsWith('~'));
      expect(held.filter((_, i) => i % 2 === 0).sort()).toEqual([a, b, x].sort());
      // Every holder now expires timeoutMs + LEASE_MS from the pass, x's short expiry included.
      for (const score of held.filter((_, i) => i % 2 === 1))
        expect(Number(score)).toBeGreaterThanOrEqual(t0 + 10_000 + node.config.leaseMs);
      const messages = warn.mock.calls.map(([m]) => String(m));
      expect(messages.filter((m) => m.includes(`job ${job}:`) && m.includes('maxConcurrency'))).toHaveLength(1);
      // Over the limit, nobody new is admitted until two of them end.
      expect(await coordination.acquireSlots(jobSlots(job), ['new'], 2, 10_000, Date.now())).toEqual([]);
      expect(await ready(n1)).toEqual([lost]); // the rest of the pass ran
    }, 30_000);

    it('should give a slot back when its instance ended between the read and the re-assertion', async () => {
      const n1 = `${ns}-n1`;
      const job = `${ns}-job-b`;
      const [a, c] = await dispatched(n1, 2, OLD, limited(job, S.RUNNING));
      await coordination.seedSlots(jobSlots(job), [a, c], 60_000, Date.now()); // as dispatch left it: both hold
      const real = coordination.acquireSlots.bind(coordination);
      jest.spyOn(coordination, 'acquireSlots').mockImplementationOnce(async (...args) => {
        // After the pass read a and c: the executor finishes c, MySQL first, then it frees the slot (before the pass re-asserts it).
        expect(
          await instances.transitions.transition(
            c,
            S.RUNNING,
            S.SUCCESS,
            { fencingToken: 1 },
            { finishedAt: Date.now() },
            Date.now(),
          ),
        ).toBe(true);
        await coordination.releaseSlot(jobSlots(job), c);
        return real(...args);
      });

      await pass(n1);

      expect((await holders(job)).filter((_, i) => i % 2 === 0)).toEqual([a, '~known']);
    }, 30_000);

    it('should not trust its own read of the holders once Redis lost the semaphore after that read (the limit holds)', async () => {
      const n1 = `${ns}-n1`;
      const job = `${ns}-job-e`;
      const [a] = await dispatched(n1, 1, OLD, limited(job, S.RUNNING));
      const [b, c] = await dispatched(n1, 2, Date.now(), {
        ...limited(job, S.PENDING),
        nodeId: null,
        dispatchedAt: null,
      });
      await coordination.seedSlots(jobSlots(job), [a], 60_000, Date.now()); // known: a runs
      const dispatch = node.app.get(DispatchService);
      const real = instances.admission.findSlotHolders.bind(instances.admission);
      let first = true;
      jest.spyOn(instances.admission, 'findSlotHolders').mockImplementation(async (...args) => {
        const rows = await real(...args);
        if (first && !args[2]) {
          first = false;
          // Right after the pass read its holders (a only): another pod admits b (a slot of the known semaphore), then
          // Redis loses the semaphore (FLUSHALL, failover): b runs, but the pass's read does not name it.
          expect((await dispatch.dispatchIds([b])).dispatched).toBe(1);
          await redis.del(`{tw:${ns}}:sem:${jobSlots(job)}`);
        }
        return rows;
      });

      await pass(n1); // its step 2 dispatches c

      const rows = await Promise.all([a, b, c].map(async (id) => (await instances.reads.findById(id))?.status));
      expect(rows.filter((s) => s === S.DISPATCHED || s === S.RUNNING)).toHaveLength(2); // a and b: c must wait
      expect(rows[2]).toBe(S.WAITING);
    }, 30_000);

    it('should leave no slot to an instance that ended while dispatch was admitting it (a stale read takes no slot for good)', async () => {
      const n1 = `${ns}-n1`;
      const job = `${ns}-job-f`;
      const one = { ...limited(job, S.PENDING), maxConcurrency: 1, nodeId: null, dispatchedAt: null };
      const [x] = await dispatched(n1, 1, Date.now() - 2000, one); // both due (dispatch moves only due rows)
      const [y] = await dispatched(n1, 1, Date.now() - 1000, one);
      await coordination.seedSlots(jobSlots(job), [], 60_000, Date.now()); // known, nothing runs
      await coordination.heartbeat(
        n1,
        { handlers: ['h'], capacity: 4, active: 0, labels: {}, host: 'x', startedAt: Date.now() },
        Date.now(),
      );
      const real = instances.reads.findByIds.bind(instances.reads);
      jest.spyOn(instances.reads, 'findByIds').mockImplementationOnce(async (ids) => {
        const rows = await real(ids);
        // Right after dispatch read x (PENDING), x is cancelled: CANCELLED in MySQL, then its slot (none yet) is freed.
        expect(
          await node.app.get(CancelService).cancel((await instances.reads.findById(x)) as JobInstance, 'test'),
        ).toBe(true);
        return rows;
      });
      const dispatch = node.app.get(DispatchService);
      expect((await dispatch.dispatchIds([x])).dispatched).toBe(0);

      // Nothing runs, so y takes the one slot; a slot left to the cancelled x would keep y WAITING for x's
      // timeoutMs + LEASE_MS (each pass would release it and dispatch would refuse it again).
      await dispatch.dispatchIds([y]);
      expect((await instances.reads.findById(y))?.status).toBe(S.DISPATCHED);
      expect((await holders(job)).filter((_, i) => i % 2 === 0).sort()).toEqual([y, '~known'].sort());
    }, 30_000);

    it('should rebuild a lost semaphore from every running instance of a job with a limit in the thousands', async () => {
      const n1 = `${ns}-n1`;
      const job = `${ns}-job-g`;
      const LIMIT = 5002; // the API takes up to 10,000
      const many = { ...limited(job, S.RUNNING), maxConcurrency: LIMIT };
      await dispatched(n1, LIMIT - 1, OLD, many);
      const [p1, p2] = await dispatched(n1, 2, Date.now(), {
        ...many,
        status: S.PENDING,
        nodeId: null,
        dispatchedAt: null,
      });
      await coordination.heartbeat(
        n1,
        { handlers: ['h'], capacity: 4, active: 0, labels: {}, host: 'x', startedAt: Date.now() },
        Date.now(),
      );
      expect(await redis.exists(`{tw:${ns}}:sem:${jobSlots(job)}`)).toBe(0); // as after FLUSHALL

      await node.app.get(DispatchService).dispatchIds([p1, p2]);

      // LIMIT - 1 run: one more fits, the other waits.
      const [{ n }] = await node.ds.query(
        'SELECT COUNT(*) AS n FROM job_instance WHERE job_id = ? AND status IN (?, ?)',
        [job, S.DISPATCHED, S.RUNNING],
      );
      expect(Number(n)).toBe(LIMIT);
      expect(
        [(await instances.reads.findById(p1))?.status, (await instances.reads.findById(p2))?.status].sort(),
      ).toEqual([S.DISPATCHED, S.WAITING]);
    }, 60_000);

    it('should rebuild a semaphore Redis does not know from MySQL before dispatch admits anyone, without a pass', async () => {
      const n1 = `${ns}-n1`;
      const job = `${ns}-job-c`;
      const [a, b] = await dispatched(n1, 2, OLD, limited(job, S.RUNNING));
      const [waits] = await dispatched(n1, 1, Date.now(), {
        ...limited(job, S.PENDING),
        nodeId: null,
        dispatchedAt: null,
      });
      const [other] = await dispatched(n1, 1, Date.now(), {
        ...limited(`${ns}-job-d`, S.PENDING),
        nodeId: null,
        dispatchedAt: null,
      });
      await coordination.heartbeat(
        n1,
        { handlers: ['h'], capacity: 4, active: 0, labels: {}, host: 'x', startedAt: Date.now() },
        Date.now(),
      );
      expect(await redis.exists(`{tw:${ns}}:sem:${jobSlots(job)}`)).toBe(0); // as after FLUSHALL

      await node.app.get(DispatchService).dispatchIds([waits, other]);

      // a and b run: the job is at its limit of 2, so the new instance waits; job-d had nothing running.
      expect((await instances.reads.findById(waits))?.status).toBe(S.WAITING);
      expect((await instances.reads.findById(other))?.status).toBe(S.DISPATCHED);
      expect((await holders(job)).filter((_, i) => i % 2 === 0).sort()).toEqual([a, b, '~known'].sort());
      expect((await holders(`${ns}-job-d`)).filter((_, i) => i % 2 === 0).sort()).toEqual([other, '~known'].sort());
    }, 30_000);

    it('should give back the slot an admission took for a row another dispatcher moved to WAITING first', async () => {
      const n1 = `${ns}-n1`;
      const job = `${ns}-job-i`;
      const [x] = await dispatched(n1, 1, Date.now(), {
        ...limited(job, S.PENDING),
        maxConcurrency: 1,
        nodeId: null,
        dispatchedAt: null,
      });
      await coordination.heartbeat(
        n1,
        { handlers: ['h'], capacity: 4, active: 0, labels: {}, host: 'x', startedAt: Date.now() },
        Date.now(),
      );
      await coordination.seedSlots(jobSlots(job), [], 60_000, Date.now());
      const real = instances.dispatch.dispatchMany.bind(instances.dispatch);
      jest.spyOn(instances.dispatch, 'dispatchMany').mockImplementationOnce(async (...args) => {
        // Another dispatcher, which found the job full a moment ago, moved x to WAITING before this write.
        expect(
          await instances.transitions.transition(
            x,
            S.PENDING,
            S.WAITING,
            { attempt: 1 },
            { error: 'MAX_CONCURRENCY' },
            Date.now(),
          ),
        ).toBe(true);
        return real(...args);
      });

      const out = await node.app.get(DispatchService).dispatchIds([x]);

      expect(out.dispatched).toBe(0);
      expect((await instances.reads.findById(x))?.status).toBe(S.WAITING);
      expect((await holders(job)).filter((_, i) => i % 2 === 0)).toEqual(['~known']); // x holds no slot while it waits
    }, 30_000);

    it('should take back, before any push, a row whose slot Redis lost between its admission and its DISPATCHED write', async () => {
      const n1 = `${ns}-n1`;
      const job = `${ns}-job-h`; // job_id holds 36 characters; a-g are taken above
      const sem = jobSlots(job);
      const one = { ...limited(job, S.PENDING), maxConcurrency: 1, nodeId: null, dispatchedAt: null };
      // Both due already (dispatchMany moves only rows due by its `now`: y due 5 ms ahead failed on a fast run).
      const [x] = await dispatched(n1, 1, Date.now() - 2000, one);
      const [y] = await dispatched(n1, 1, Date.now() - 1000, one);
      await coordination.heartbeat(
        n1,
        { handlers: ['h'], capacity: 4, active: 0, labels: {}, host: 'x', startedAt: Date.now() },
        Date.now(),
      );
      await coordination.seedSlots(sem, [], 60_000, Date.now());
      const real = instances.dispatch.dispatchMany.bind(instances.dispatch);
      jest.spyOn(instances.dispatch, 'dispatchMany').mockImplementationOnce(async (...args) => {
        // x holds its slot now. Redis loses it; another dispatcher rebuilds from a read that saw x still
        // PENDING (no holder), admits y in its place and writes y DISPATCHED.
        await redis.del(`{tw:${ns}}:sem:${sem}`);
        await coordination.seedSlots(sem, [], 60_000, Date.now());
        expect(await coordination.acquireSlots(sem, [y], 1, 60_000, Date.now())).toEqual([y]);
        expect(await real([y], n1, Date.now())).toEqual(new Set([y]));
        return real(...args);
      });

      const out = await node.app.get(DispatchService).dispatchIds([x]);

      expect(out.dispatched).toBe(0);
      expect(out.waiting + out.skipped + out.dispatched).toBe(1);
      const row = await instances.reads.findById(x);
      expect([row?.status, row?.nodeId]).toEqual([S.WAITING, null]);
      expect(await ready(n1)).toEqual([]); // x was never pushed: only y may run
      expect((await holders(job)).filter((_, i) => i % 2 === 0).sort()).toEqual([y, '~known'].sort());
    }, 30_000);
  });
});
