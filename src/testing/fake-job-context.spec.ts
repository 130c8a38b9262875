import { CheckpointRejected } from '../modules/handler/index.js';
import { FakeJobContext } from './fake-job-context.js';

describe(FakeJobContext.name, () => {
  it('should carry the given identity and defaults', () => {
    const ctx = new FakeJobContext({ params: { n: 1 }, attempt: 3, now: () => 42 });
    expect([ctx.params, ctx.attempt, ctx.maxAttempts, ctx.fencingToken, ctx.lastCheckpoint]).toEqual([
      { n: 1 },
      3,
      3,
      3,
      null,
    ]);
    expect([ctx.requestId, ctx.fireTime, ctx.shardIndex, ctx.shardTotal, ctx.signal.aborted]).toEqual([
      'req-1',
      42,
      0,
      1,
      false,
    ]);
  });

  it('should record copies of checkpoints with attempt, token and time; lastCheckpoint stays as it began', async () => {
    const last = { state: { page: 1 }, attempt: 1, fencingToken: 1, at: 1 };
    const ctx = new FakeJobContext({ attempt: 2, fencingToken: 5, lastCheckpoint: last, now: () => 7 });
    const state = { page: 2 };
    await ctx.checkpoint(state);
    state.page = 99; // a later change must not leak into the stored copy
    await ctx.checkpoint({ page: 3 });
    expect(ctx.checkpoints).toEqual([
      { state: { page: 2 }, attempt: 2, fencingToken: 5, at: 7 },
      { state: { page: 3 }, attempt: 2, fencingToken: 5, at: 7 },
    ]);
    expect(ctx.lastCheckpoint).toBe(last);
  });

  it('should refuse what the product refuses: no JSON, too large', async () => {
    const ctx = new FakeJobContext({ checkpointMaxBytes: 10 });
    await expect(ctx.checkpoint(undefined)).rejects.toThrow(RangeError);
    await expect(ctx.checkpoint({ n: 1n })).rejects.toThrow(/'n' is a bigint/);
    await expect(ctx.checkpoint('x'.repeat(20))).rejects.toThrow(/22 bytes of JSON, over CHECKPOINT_MAX_BYTES \(10\)/);
    expect(ctx.checkpoints).toEqual([]);
  });

  it('should reject checkpoints after the chosen count with CheckpointRejected (a stale fencing token)', async () => {
    const ctx = new FakeJobContext({ fencingToken: 4 });
    ctx.rejectCheckpoints(1);
    await ctx.checkpoint({ i: 1 });
    await expect(ctx.checkpoint({ i: 2 })).rejects.toThrow(CheckpointRejected);
    await expect(ctx.checkpoint({ i: 3 })).rejects.toThrow(/fencing token 4 is no longer current/);
    expect(ctx.checkpoints.map((c) => c.state)).toEqual([{ i: 1 }]);
    expect(ctx.rejectedCheckpoints).toEqual([{ i: 2 }, { i: 3 }]);
  });

  it('should abort the signal with the reason given', () => {
    const ctx = new FakeJobContext();
    const reason = new Error('lease lost');
    ctx.abort(reason);
    expect([ctx.signal.aborted, ctx.signal.reason]).toEqual([true, reason]);
  });

  it('should record progress (clamped), heartbeats and log lines by level', () => {
    const ctx = new FakeJobContext();
    ctx.progress(0.5, 'half');
    ctx.progress(2);
    ctx.heartbeat();
    ctx.heartbeat();
    ctx.log.info('row', 3, { id: 'a' });
    ctx.log.warn('slow');
    ctx.log.error(new Error('boom').message);
    ctx.logger.log('via nest');
    expect(ctx.progressReports).toEqual([{ fraction: 0.5, note: 'half' }, { fraction: 1 }]);
    expect(ctx.heartbeats).toBe(2);
    expect(ctx.lines('info')).toEqual(['row 3 {"id":"a"}']);
    expect(ctx.lines('warn')).toEqual(['slow']);
    expect(ctx.lines('error')).toEqual(['boom']);
    expect(ctx.lines()).toHaveLength(4);
  });
});
