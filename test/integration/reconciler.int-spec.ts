import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { Admission } from '../../src/modules/dispatch/index.js';
import {
  JobInstance,
  JobInstanceStatus as S,
  newJobInstance,
  TriggerSource,
} from '../../src/modules/metadata/index.js';
import { items, occurrences, ReconcilerBench } from '../utils/reconciler-bench.js';

/**
 * Repair steps of the leader's reconciler on the real MariaDB and Redis (step 0, slots:
 * reconciler-slots.int-spec.ts). Step 5 (docs/dispatch.md "Reconciler"): a DISPATCHED row whose id is in neither
 * list of its node is pushed again, once; ids legitimately queued, and rows an executor claimed meanwhile, are left
 * alone. Membership is decided by one snapshot of each node's lists (queuedIds), not by a check per row: with
 * thousands of queued ids a per-row LPOS cost most of a pass. The test drives the passes and plays the executor
 * (ReconcilerBench); the fake nodes beat before each pass, so they count as live.
 */
describe('ReconcilerService repair steps (MariaDB + Redis)', () => {
  const bench = new ReconcilerBench('int-reconcile');
  const { ns, keys, OLD, dispatched, pass, ready } = bench;

  it('should push a lost id exactly once, and leave queued, claimed, late-pushed and young rows alone', async () => {
    const [n1, n2] = [`${ns}-n1`, `${ns}-n2`];
    const [claimed] = await dispatched(n1, 1);
    const queued = await dispatched(n1, 30);
    const [inProcessing] = await dispatched(n1, 1);
    const [lost1] = await dispatched(n1, 1);
    const [late] = await dispatched(n1, 1);
    const [young] = await dispatched(n1, 1, Date.now()); // dispatched this pass: its push may still be on its way
    const [lost2] = await dispatched(n2, 1);
    await bench.coordination.pushReady(n1, items([claimed, ...queued, inProcessing]));
    // An executor holds one claimed id of the node (claimed, row not yet RUNNING): the processing list counts.
    const real = bench.coordination.queuedIds.bind(bench.coordination);
    let first = true;
    jest.spyOn(bench.coordination, 'queuedIds').mockImplementation(async (nodeId: string) => {
      if (nodeId !== n1 || !first) return real(nodeId);
      first = false;
      // Between the candidate read and the snapshot, an executor claims, runs and acks `claimed`.
      expect(await bench.coordination.claim(n1, 0)).toBe(claimed);
      const claimRow = (await bench.instances.reads.findById(claimed)) as JobInstance;
      expect(
        await bench.instances.transitions.transition(
          claimed,
          S.DISPATCHED,
          S.RUNNING,
          { nodeId: n1 },
          { fencingToken: 1 },
          Date.now(),
        ),
      ).toBe(true);
      expect(
        await bench.instances.transitions.transition(
          claimed,
          S.RUNNING,
          S.SUCCESS,
          { attempt: claimRow.attempt },
          { finishedAt: Date.now() },
          Date.now(),
        ),
      ).toBe(true);
      await bench.coordination.ack(n1, claimed);
      // Then `inProcessing` is claimed (moved to processing), and the snapshot is taken.
      await bench.redis.zrem(keys.readyRank(n1, 'int'), inProcessing);
      await bench.redis.rpush(keys.processing(n1), inProcessing);
      const snapshot = await real(nodeId);
      // Right after the snapshot, a late push of `late` lands (its row is still DISPATCHED): the second look must see it.
      await bench.coordination.pushReady(n1, items([late]));
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
    expect((await bench.instances.reads.findById(claimed))?.status).toBe(S.SUCCESS);
  }, 30_000);

  it('should count and log apart the instances of a lost node routed again and those that ended FAILED', async () => {
    const lost = `${ns}-n1`;
    const longAgo = Date.now() - 700_000; // beyond NODE_OFFLINE_AFTER_MS (10 min): the node is stale
    await bench.coordination.heartbeat(
      lost,
      { handlers: ['h'], capacity: 1, active: 2, labels: {}, host: 'x', startedAt: longAgo },
      longAgo,
    );
    const running = { status: S.RUNNING, fencingToken: 1, startedAt: OLD, leaseUntil: Date.now() + 600_000 };
    const [again] = await dispatched(lost, 1, OLD, { ...running, attempt: 1, maxAttempts: 3 });
    const [last] = await dispatched(lost, 1, OLD, { ...running, attempt: 2, maxAttempts: 2 });
    const warn = jest.spyOn(Logger.prototype, 'warn');
    await bench.sut.reconcileOnce();
    const routed = (await bench.instances.reads.findById(again)) as JobInstance;
    // Routed again: PENDING when no fake node of an earlier test is still live, else DISPATCHED to it.
    expect([S.PENDING, S.DISPATCHED]).toContain(routed.status);
    expect([routed.attempt, routed.nodeId === lost]).toEqual([2, false]);
    expect((await bench.instances.reads.findById(last))?.status).toBe(S.FAILED);
    const said = warn.mock.calls.map(([m]) => String(m)).filter((m) => m.includes(`node ${lost} offline`));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('1 routed again, 1 FAILED');
  }, 30_000);

  it("should read each node's lists once per pass, not once per row, when every id is queued", async () => {
    const [n1, n2] = [`${ns}-n1`, `${ns}-n2`];
    const on1 = await dispatched(n1, 200);
    const on2 = await dispatched(n2, 100);
    await bench.coordination.pushReady(n1, items(on1.slice(20)));
    await bench.coordination.pushReady(n1, items(on1.slice(0, 20)));
    expect(await bench.coordination.claim(n1, 0)).not.toBeNull(); // one claimed
    await bench.coordination.pushReady(n2, items(on2));
    const snapshots = jest.spyOn(bench.coordination, 'queuedIds');

    await pass(n1, n2);

    expect(snapshots.mock.calls.map(([n]) => n).sort()).toEqual([n1, n2]);
    expect((await ready(n1)).length + (await bench.redis.llen(keys.processing(n1)))).toBe(200);
    expect(await ready(n2)).toHaveLength(100);
  }, 30_000);

  it('should go round every job with WAITING instances, a page of 500 per pass, so none is starved of the release backstop', async () => {
    const jobs = Array.from({ length: 501 }, (_, i) => `${ns}-w${String(i).padStart(4, '0')}`);
    const now = Date.now();
    await bench.instances.fires.insertIgnore(
      bench.node.ds.manager,
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
    const released = jest.spyOn(bench.node.app.get(Admission), 'promoteNext').mockResolvedValue(undefined as never);
    const perPass: string[][] = [];
    for (let i = 0; i < 3; i++) {
      released.mockClear();
      await pass();
      perPass.push(released.mock.calls.map(([jobId]) => String(jobId)));
    }
    expect(perPass.map((p) => p.length)).toEqual([500, 1, 500]);
    expect([...perPass[0], ...perPass[1]].sort()).toEqual(jobs);
  }, 60_000);
});
