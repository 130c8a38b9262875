import { CheckpointRejected, type JobContext, type JobHandlerImpl } from '../modules/handler/index.js';
import { runStopAndResume } from './stop-and-resume.js';

/** Sums 1..n one step per checkpoint, resuming from the last one; `effects` is each step it did (idempotency). */
class Summer implements JobHandlerImpl {
  readonly effects: Array<{ i: number; token: number }> = [];

  constructor(private readonly honourAbort = true) {}

  async execute(ctx: JobContext): Promise<unknown> {
    const { n } = ctx.params as { n: number };
    const from = (ctx.lastCheckpoint?.state as { i: number; sum: number } | undefined) ?? { i: 0, sum: 0 };
    let { i, sum } = from;
    while (i < n) {
      if (this.honourAbort) ctx.signal.throwIfAborted();
      i++;
      sum += i;
      this.effects.push({ i, token: ctx.fencingToken });
      await ctx.checkpoint({ i, sum }); // CheckpointRejected once stopped: the attempt is no longer its own
    }
    return { sum, resumedFrom: from.i };
  }
}

describe(runStopAndResume.name, () => {
  it('should stop after the Nth checkpoint and resume the next attempt, token + 1, from it', async () => {
    const h = new Summer();
    const { first, second, result } = await runStopAndResume(h, {
      stopAfterCheckpoint: 2,
      context: { params: { n: 4 } },
    });
    expect(result).toEqual({ sum: 10, resumedFrom: 2 });
    expect(first.ctx.checkpoints.map((c) => c.state)).toEqual([
      { i: 1, sum: 1 },
      { i: 2, sum: 3 },
    ]);
    expect(first.outcome.status).toBe('threw'); // throwIfAborted
    expect(first.ctx.signal.reason).toEqual(new Error('stopped: shutdown'));
    expect([second.ctx.attempt, second.ctx.fencingToken]).toEqual([2, 2]);
    expect(second.ctx.lastCheckpoint).toMatchObject({ state: { i: 2, sum: 3 }, attempt: 1, fencingToken: 1 });
    expect(h.effects.map((e) => e.i)).toEqual([1, 2, 3, 4]); // each step once: nothing redone, nothing skipped
  });

  it('should stop where the predicate holds and refuse the checkpoints made after the abort', async () => {
    const h = new Summer(false); // does not look at its signal: its later checkpoints are refused
    const res = await runStopAndResume(h, {
      stopWhen: (s) => (s as { sum: number }).sum >= 6,
      context: { params: { n: 5 }, attempt: 2, fencingToken: 7 },
      reason: 'lease lost',
    });
    expect(res.first.ctx.checkpoints.map((c) => (c.state as { i: number }).i)).toEqual([1, 2, 3]);
    expect(res.first.outcome).toMatchObject({ status: 'threw', error: expect.any(CheckpointRejected) });
    expect(res.first.ctx.rejectedCheckpoints).toEqual([{ i: 4, sum: 10 }]);
    expect([res.second.ctx.attempt, res.second.ctx.fencingToken]).toEqual([3, 8]);
    expect(res.result).toEqual({ sum: 15, resumedFrom: 3 });
    // step 4 ran twice (once discarded): the harness shows the author what a resumed attempt repeats
    expect(h.effects.filter((e) => e.i === 4).map((e) => e.token)).toEqual([7, 8]);
  });

  it('should fail when the first run ends before the stop point', async () => {
    await expect(
      runStopAndResume(new Summer(), { stopAfterCheckpoint: 9, context: { params: { n: 2 } } }),
    ).rejects.toThrow(/ended \(returned\) before the stop point, after 2 checkpoint/);
  });

  it('should fail when the first run does not end after its abort', async () => {
    const stuck: JobHandlerImpl = {
      async execute(ctx) {
        await ctx.checkpoint({ i: 1 });
        await new Promise(() => undefined); // never ends, abort or not
      },
    };
    await expect(runStopAndResume(stuck, { stopAfterCheckpoint: 1, settleMs: 50 })).rejects.toThrow(
      /did not end within 50 ms of its abort/,
    );
  });

  it('should throw what the resumed run throws', async () => {
    const failsOnResume: JobHandlerImpl = {
      async execute(ctx) {
        if (ctx.lastCheckpoint) throw new Error('cannot resume');
        await ctx.checkpoint({ i: 1 });
        ctx.signal.throwIfAborted();
      },
    };
    await expect(runStopAndResume(failsOnResume, { stopAfterCheckpoint: 1 })).rejects.toThrow('cannot resume');
  });
});
