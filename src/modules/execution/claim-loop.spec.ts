import { FakeClock } from '../../../test/fakes/fake-clock.js';
import type { AppConfig } from '../../config/index.js';
import type { ClaimedItem, ClaimShare, NodeQueuePort } from '../coordination/index.js';
import { ClaimAhead } from './claim-ahead.js';
import { ClaimLoop, FINISH_BACKLOG } from './claim-loop.js';
import type { RunHooks, TaskRunner } from './task-runner.service.js';

const T0 = 1_800_000_000_000;
const tick = () => new Promise((r) => setImmediate(r));

/** One runMany call of the loop: its ids and hooks. */
interface Call {
  ids: string[];
  hooks: RunHooks;
}

/**
 * The claim loop against a queue that always has work (app `a`) and a runner the test drives by hand: it says when
 * a claim write answers, asks for slots, ends handlers and attempts.
 */
function harness(workers: number, share = 1) {
  const clock = new FakeClock(T0);
  const calls: Call[] = [];
  const claims: Array<{ max: number; busy: number; held: number }> = [];
  let next = 0;
  const box: { loop?: ClaimLoop } = {};
  const queues = {
    claimMany: async (_node: string, max: number, _wait: number, s?: ClaimShare): Promise<ClaimedItem[]> => {
      await tick();
      const room = Math.min(max, (s?.cap ?? max) - (s?.held.get('a') ?? 0));
      if (room <= 0) {
        await new Promise((r) => setTimeout(r, 2));
        return [];
      }
      claims.push({ max: room, busy: box.loop?.running ?? 0, held: s?.held.get('a') ?? 0 });
      return Array.from({ length: room }, () => ({ id: `i-${next++}`, appId: 'a' }));
    },
    ackMany: async () => undefined,
  } as unknown as NodeQueuePort;
  const runner = {
    runMany: async (ids: string[], _n: string, _s: AbortSignal, hooks: RunHooks) => void calls.push({ ids, hooks }),
  } as unknown as TaskRunner;
  const config = { executorConcurrency: workers, executorAppShare: share } as AppConfig;
  const sut = new ClaimLoop(runner, queues, config, clock);
  box.loop = sut;
  /** Waits until the loop has made `n` runMany calls in all. */
  const calledTimes = async (n: number) => {
    for (let i = 0; i < 1000 && calls.length < n; i++) await tick();
    expect(calls.length).toBeGreaterThanOrEqual(n);
    return calls[n - 1];
  };
  const started = new Set<string>();
  /** The claim write of `c` answers after `ms`; each of its ids asks for its slot (those free are given). */
  const claimAndStart = async (c: Call, ms: number) => {
    clock.setNow(clock.now() + ms);
    c.hooks.claimed?.();
    c.ids.forEach((id, k) => void c.hooks.slot?.(id, k, new AbortController().signal)?.then(() => started.add(id)));
    for (let i = 0; i < 5; i++) await tick();
  };
  /** Ends the handlers (and, with `ended`, the attempts) of every id of every call that holds a slot. */
  const endHandlers = (ended = true) =>
    calls.forEach((c) =>
      c.ids.forEach((id, k) => {
        if (!started.delete(id)) return;
        c.hooks.handlerDone(id, k);
        if (ended) c.hooks.ended(id, k);
      }),
    );
  return { sut, clock, calls, claims, started, calledTimes, claimAndStart, endHandlers };
}

describe('ClaimLoop (docs/execution.md "Claim loop")', () => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
    stop = undefined;
  });

  it('should take a worker slot only when the handler starts, not during the claim write', async () => {
    const h = harness(4);
    h.sut.start('n-1', new AbortController().signal);
    stop = () => h.sut.stop();
    const first = await h.calledTimes(1);
    expect(first.ids).toHaveLength(4);
    expect(h.sut.running).toBe(0); // the claim write has not answered: no slot is taken yet
    expect(h.sut.inFlight).toBe(4);
    await h.claimAndStart(first, 5);
    expect(h.sut.running).toBe(4);
  });

  it('should claim ahead while every slot runs a handler once slots free faster than a claim takes', async () => {
    const h = harness(4);
    h.sut.start('n-1', new AbortController().signal);
    stop = () => h.sut.stop();
    // Short handlers: each group's claim write takes 10 ms, its handlers 1 ms.
    const ahead = (n: number) => h.claims[n - 1].held + h.claims[n - 1].max > 4;
    let n = 1;
    for (; n <= 60; n++) {
      const c = await h.calledTimes(n);
      if (ahead(n)) break;
      await h.claimAndStart(c, 10);
      h.clock.setNow(h.clock.now() + 1);
      h.endHandlers();
    }
    // a claim that took more ids than the slots left (ids taken and not yet ended beyond the four slots)
    expect(n).toBeLessThanOrEqual(60);
    // Those beyond the four slots wait for one until a handler ends.
    const c = h.calls[n - 1];
    await h.claimAndStart(c, 10);
    expect(h.sut.running).toBe(4);
    const waiting = c.ids.filter((id) => !h.started.has(id));
    expect(waiting.length).toBeGreaterThan(0);
    expect(h.sut.inFlight).toBeGreaterThan(4);
    h.endHandlers();
    for (let i = 0; i < 5; i++) await tick();
    expect(h.started.has(waiting[0])).toBe(true);
  });

  it('should not claim ahead for handlers that run long', async () => {
    const h = harness(4);
    h.sut.start('n-1', new AbortController().signal);
    stop = () => h.sut.stop();
    for (let n = 1; n <= 20; n++) {
      const c = await h.calledTimes(n);
      await h.claimAndStart(c, 10);
      h.clock.setNow(h.clock.now() + 1000);
      h.endHandlers();
    }
    expect(h.claims.filter((x) => x.held + x.max > 4)).toEqual([]);
    expect(h.calls.every((c) => c.ids.length <= 4)).toBe(true);
  });

  it('should go on claiming while finished ids wait for their finishing write, up to FINISH_BACKLOG', async () => {
    const h = harness(2);
    h.sut.start('n-1', new AbortController().signal);
    stop = () => h.sut.stop();
    let taken = 0;
    for (let n = 1; taken < FINISH_BACKLOG; n++) {
      const c = await h.calledTimes(n);
      await h.claimAndStart(c, 0);
      h.endHandlers(false); // handlers ended; their finishing writes have not committed
      taken += c.ids.length;
    }
    for (let i = 0; i < 50; i++) await tick();
    expect(taken).toBe(FINISH_BACKLOG); // not 4 × 2 = 8: ids that only wait for their write hold no slot
    expect(h.calls.reduce((n, c) => n + c.ids.length, 0)).toBe(FINISH_BACKLOG);
    const first = h.calls[0];
    first.hooks.ended(first.ids[0], 0);
    await h.calledTimes(h.calls.length + 1); // one acked: the loop claims again
  });

  it('should let an id that waits for a slot end without one (its handler never started)', async () => {
    const h = harness(1);
    h.sut.start('n-1', new AbortController().signal);
    stop = () => h.sut.stop();
    const c = await h.calledTimes(1);
    await h.claimAndStart(c, 1);
    expect(h.sut.running).toBe(1);
    h.endHandlers();
    expect(h.sut.running).toBe(0);
    const d = await h.calledTimes(2);
    d.hooks.claimed?.();
    const abort = new AbortController();
    abort.abort();
    await d.hooks.slot?.(d.ids[0], 0, abort.signal); // aborted (cancelled, shutdown) before a slot was free
    d.hooks.handlerDone(d.ids[0], 0);
    d.hooks.ended(d.ids[0], 0);
    expect(h.sut.running).toBe(0);
    await h.calledTimes(3);
  });
});

describe('ClaimAhead', () => {
  it('should allow the slots expected to free during one claim round trip, at most max', () => {
    let now = T0;
    const ahead = new ClaimAhead(16, () => now);
    expect(ahead.room()).toBe(0);
    const claim = ahead.claimStarted();
    now += 8;
    claim.ended(); // a round trip of 8 ms, mixed with 0: 4 ms
    for (let i = 0; i < 100; i++) ahead.slotFreed();
    now += 100;
    expect(ahead.room()).toBe(1); // 100 frees in 108 ms, mixed with 0: 0.46 per ms × 4 ms
    for (let r = 0; r < 10; r++) {
      const c = ahead.claimStarted();
      now += 8;
      c.ended();
      for (let i = 0; i < 800; i++) ahead.slotFreed();
      now += 92;
    }
    expect(ahead.room()).toBe(16);
  });

  it('should fall to 0 when no slot frees', () => {
    let now = T0;
    const ahead = new ClaimAhead(16, () => now);
    const c = ahead.claimStarted();
    now += 10;
    c.ended();
    for (let i = 0; i < 300; i++) ahead.slotFreed();
    now += 100;
    expect(ahead.room()).toBeGreaterThan(0);
    for (let w = 0; w < 20; w++) {
      now += 100;
      ahead.room();
    }
    expect(ahead.room()).toBe(0);
  });
});
