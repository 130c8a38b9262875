import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { jobSlots } from '../../src/modules/coordination/index.js';
import { CancelService, DispatchService } from '../../src/modules/dispatch/index.js';
import { JobInstance, JobInstanceStatus as S } from '../../src/modules/metadata/index.js';
import { ReconcilerBench } from '../utils/reconciler-bench.js';

/**
 * Step 0 of the leader's reconciler on the real MariaDB and Redis (docs/admission.md): DISPATCHED and RUNNING
 * instances of a limited job hold their semaphore slot again (whatever the limit: they run) in the semaphores Redis
 * still knows; when the limit is exceeded the pass warns and goes on. A semaphore Redis does not know is left to
 * dispatch, which rebuilds it from a read of its own before it admits anyone: the pass's read may predate the loss.
 * The test drives the passes and plays the executor (ReconcilerBench).
 */
describe('ReconcilerService step 0: maxConcurrency slots (MariaDB + Redis)', () => {
  const bench = new ReconcilerBench('int-reconcile-slots');
  const { ns, OLD, dispatched, pass, ready } = bench;
  const limited = (jobId: string, status: S) => ({
    jobId,
    maxConcurrency: 2,
    timeoutMs: 10_000,
    status,
    ...(status === S.RUNNING ? { startedAt: OLD, fencingToken: 1 } : {}),
  });
  const holders = async (jobId: string) =>
    await bench.redis.zrange(`{tw:${ns}}:sem:${jobSlots(jobId)}`, 0, -1, 'WITHSCORES');

  it('should make running instances hold their slots again whatever the limit, warn naming the job when it is exceeded, and finish the pass', async () => {
    const n1 = `${ns}-n1`;
    const job = `${ns}-job-a`;
    const [a, b] = await dispatched(n1, 2, OLD, limited(job, S.RUNNING));
    const [x] = await dispatched(n1, 1, Date.now(), limited(job, S.DISPATCHED));
    const [lost] = await dispatched(n1, 1);
    // Redis knows only x, with a short expiry (a flush while x was being admitted): a and b run too.
    await bench.coordination.seedSlots(jobSlots(job), [x], 1000, Date.now());
    const warn = jest.spyOn(Logger.prototype, 'warn');
    const t0 = Date.now();

    await pass(n1);

    const held = (await holders(job)).filter((_, i, all) => !(i % 2 === 0 ? all[i] : all[i - 1]).startsWith('~'));
    expect(held.filter((_, i) => i % 2 === 0).sort()).toEqual([a, b, x].sort());
    // Every holder now expires timeoutMs + LEASE_MS from the pass, x's short expiry included.
    for (const score of held.filter((_, i) => i % 2 === 1))
      expect(Number(score)).toBeGreaterThanOrEqual(t0 + 10_000 + bench.node.config.leaseMs);
    const messages = warn.mock.calls.map(([m]) => String(m));
    expect(messages.filter((m) => m.includes(`job ${job}:`) && m.includes('maxConcurrency'))).toHaveLength(1);
    // Over the limit, nobody new is admitted until two of them end.
    expect(await bench.coordination.acquireSlots(jobSlots(job), ['new'], 2, 10_000, Date.now())).toEqual([]);
    expect(await ready(n1)).toEqual([lost]); // the rest of the pass ran
  }, 30_000);

  it('should give a slot back when its instance ended between the read and the re-assertion', async () => {
    const n1 = `${ns}-n1`;
    const job = `${ns}-job-b`;
    const [a, c] = await dispatched(n1, 2, OLD, limited(job, S.RUNNING));
    await bench.coordination.seedSlots(jobSlots(job), [a, c], 60_000, Date.now()); // as dispatch left it: both hold
    const real = bench.coordination.acquireSlots.bind(bench.coordination);
    jest.spyOn(bench.coordination, 'acquireSlots').mockImplementationOnce(async (...args) => {
      // After the pass read a and c: the executor finishes c, MySQL first, then it frees the slot (before the pass re-asserts it).
      expect(
        await bench.instances.transitions.transition(
          c,
          S.RUNNING,
          S.SUCCESS,
          { fencingToken: 1 },
          { finishedAt: Date.now() },
          Date.now(),
        ),
      ).toBe(true);
      await bench.coordination.releaseSlot(jobSlots(job), c);
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
    await bench.coordination.seedSlots(jobSlots(job), [a], 60_000, Date.now()); // known: a runs
    const dispatch = bench.node.app.get(DispatchService);
    const real = bench.instances.admission.findSlotHolders.bind(bench.instances.admission);
    let first = true;
    jest.spyOn(bench.instances.admission, 'findSlotHolders').mockImplementation(async (...args) => {
      const rows = await real(...args);
      if (first && !args[2]) {
        first = false;
        // Right after the pass read its holders (a only): another pod admits b (a slot of the known semaphore), then
        // Redis loses the semaphore (FLUSHALL, failover): b runs, but the pass's read does not name it.
        expect((await dispatch.dispatchIds([b])).dispatched).toBe(1);
        await bench.redis.del(`{tw:${ns}}:sem:${jobSlots(job)}`);
      }
      return rows;
    });

    await pass(n1); // its step 2 dispatches c

    const rows = await Promise.all([a, b, c].map(async (id) => (await bench.instances.reads.findById(id))?.status));
    expect(rows.filter((s) => s === S.DISPATCHED || s === S.RUNNING)).toHaveLength(2); // a and b: c must wait
    expect(rows[2]).toBe(S.WAITING);
  }, 30_000);

  it('should leave no slot to an instance that ended while dispatch was admitting it (a stale read takes no slot for good)', async () => {
    const n1 = `${ns}-n1`;
    const job = `${ns}-job-f`;
    const one = { ...limited(job, S.PENDING), maxConcurrency: 1, nodeId: null, dispatchedAt: null };
    const [x] = await dispatched(n1, 1, Date.now() - 2000, one); // both due (dispatch moves only due rows)
    const [y] = await dispatched(n1, 1, Date.now() - 1000, one);
    await bench.coordination.seedSlots(jobSlots(job), [], 60_000, Date.now()); // known, nothing runs
    await bench.beat(n1, 4);
    const real = bench.instances.reads.findByIds.bind(bench.instances.reads);
    jest.spyOn(bench.instances.reads, 'findByIds').mockImplementationOnce(async (ids) => {
      const rows = await real(ids);
      // Right after dispatch read x (PENDING), x is cancelled: CANCELLED in MySQL, then its slot (none yet) is freed.
      expect(
        await bench.node.app
          .get(CancelService)
          .cancel((await bench.instances.reads.findById(x)) as JobInstance, 'test'),
      ).toBe(true);
      return rows;
    });
    const dispatch = bench.node.app.get(DispatchService);
    expect((await dispatch.dispatchIds([x])).dispatched).toBe(0);

    // Nothing runs, so y takes the one slot; a slot left to the cancelled x would keep y WAITING for x's
    // timeoutMs + LEASE_MS (each pass would release it and dispatch would refuse it again).
    await dispatch.dispatchIds([y]);
    expect((await bench.instances.reads.findById(y))?.status).toBe(S.DISPATCHED);
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
    await bench.beat(n1, 4);
    expect(await bench.redis.exists(`{tw:${ns}}:sem:${jobSlots(job)}`)).toBe(0); // as after FLUSHALL

    await bench.node.app.get(DispatchService).dispatchIds([p1, p2]);

    // LIMIT - 1 run: one more fits, the other waits.
    const [{ n }] = await bench.node.ds.query(
      'SELECT COUNT(*) AS n FROM job_instance WHERE job_id = ? AND status IN (?, ?)',
      [job, S.DISPATCHED, S.RUNNING],
    );
    expect(Number(n)).toBe(LIMIT);
    expect(
      [(await bench.instances.reads.findById(p1))?.status, (await bench.instances.reads.findById(p2))?.status].sort(),
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
    await bench.beat(n1, 4);
    expect(await bench.redis.exists(`{tw:${ns}}:sem:${jobSlots(job)}`)).toBe(0); // as after FLUSHALL

    await bench.node.app.get(DispatchService).dispatchIds([waits, other]);

    // a and b run: the job is at its limit of 2, so the new instance waits; job-d had nothing running.
    expect((await bench.instances.reads.findById(waits))?.status).toBe(S.WAITING);
    expect((await bench.instances.reads.findById(other))?.status).toBe(S.DISPATCHED);
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
    await bench.beat(n1, 4);
    await bench.coordination.seedSlots(jobSlots(job), [], 60_000, Date.now());
    const real = bench.instances.dispatch.dispatchMany.bind(bench.instances.dispatch);
    jest.spyOn(bench.instances.dispatch, 'dispatchMany').mockImplementationOnce(async (...args) => {
      // Another dispatcher, which found the job full a moment ago, moved x to WAITING before this write.
      expect(
        await bench.instances.transitions.transition(
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

    const out = await bench.node.app.get(DispatchService).dispatchIds([x]);

    expect(out.dispatched).toBe(0);
    expect((await bench.instances.reads.findById(x))?.status).toBe(S.WAITING);
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
    await bench.beat(n1, 4);
    await bench.coordination.seedSlots(sem, [], 60_000, Date.now());
    const real = bench.instances.dispatch.dispatchMany.bind(bench.instances.dispatch);
    jest.spyOn(bench.instances.dispatch, 'dispatchMany').mockImplementationOnce(async (...args) => {
      // x holds its slot now. Redis loses it; another dispatcher rebuilds from a read that saw x still
      // PENDING (no holder), admits y in its place and writes y DISPATCHED.
      await bench.redis.del(`{tw:${ns}}:sem:${sem}`);
      await bench.coordination.seedSlots(sem, [], 60_000, Date.now());
      expect(await bench.coordination.acquireSlots(sem, [y], 1, 60_000, Date.now())).toEqual([y]);
      expect(await real([y], n1, Date.now())).toEqual(new Set([y]));
      return real(...args);
    });

    const out = await bench.node.app.get(DispatchService).dispatchIds([x]);

    expect(out.dispatched).toBe(0);
    expect(out.waiting + out.skipped + out.dispatched).toBe(1);
    const row = await bench.instances.reads.findById(x);
    expect([row?.status, row?.nodeId]).toEqual([S.WAITING, null]);
    expect(await ready(n1)).toEqual([]); // x was never pushed: only y may run
    expect((await holders(job)).filter((_, i) => i % 2 === 0).sort()).toEqual([y, '~known'].sort());
  }, 30_000);
});
