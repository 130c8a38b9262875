import { jest } from '@jest/globals';
import { ConflictError, TimeoutMode } from '../../common/index.js';
import { type JobInstance, JobInstanceStatus as S } from '../metadata/index.js';
import { decideOutcome } from './outcome-policy.js';
import { MAX_HAND_BACK_ATTEMPT, RemoteAttempts, remoteOutcome } from './remote-attempts.js';

describe('remoteOutcome (an app worker’s finish as an executor’s outcome)', () => {
  const row = { timeoutMs: 60_000, timeoutMode: TimeoutMode.HARD, heartbeatTimeoutMs: 0 };
  const DAY_MS = 86_400_000;
  const policyRow = { maxAttempts: 1, retryBackoffMs: 1000, retryBackoffKind: 'FIXED', nodeId: 'w-a-1', dueAt: 0 };

  it('should hand a SHUTDOWN back for free below the cap, costing no attempt (maxAttempts + 1)', () => {
    const attempt = MAX_HAND_BACK_ATTEMPT - 1;
    const outcome = remoteOutcome({ ...row, attempt }, { fencingToken: 1, outcome: 'SHUTDOWN' }, DAY_MS);
    expect(outcome.status).toBe('HANDED_BACK');
    const d = decideOutcome({ ...policyRow, attempt, maxAttempts: attempt } as never, { kind: 'ran', outcome }, 0);
    expect(d).toMatchObject({ verdict: 'HAND_BACK', patch: { maxAttempts: attempt + 1 } });
  });

  it('should count a SHUTDOWN at the cap as a failed attempt, so an app cannot hand one instance back for ever', () => {
    const attempt = MAX_HAND_BACK_ATTEMPT;
    const outcome = remoteOutcome({ ...row, attempt }, { fencingToken: 1, outcome: 'SHUTDOWN' }, DAY_MS);
    expect(outcome).toMatchObject({ status: S.FAILED, error: expect.stringContaining('SHUTDOWN: handed back') });
    const d = decideOutcome({ ...policyRow, attempt, maxAttempts: attempt } as never, { kind: 'ran', outcome }, 0);
    expect(d).toMatchObject({ verdict: 'FAIL', status: S.FAILED });
  });

  it('should map the other outcomes as a handler’s end maps', () => {
    const at = { ...row, attempt: 1 };
    expect(remoteOutcome(at, { fencingToken: 1, outcome: 'SUCCESS', result: { n: 1 } }, DAY_MS)).toEqual({
      status: S.SUCCESS,
      result: { n: 1 },
    });
    expect(remoteOutcome(at, { fencingToken: 1, outcome: 'TIMEOUT' }, DAY_MS).status).toBe(S.TIMEOUT);
    expect(remoteOutcome(at, { fencingToken: 1, outcome: 'CANCELLED' }, DAY_MS).status).toBe(S.CANCELLED);
    const failed = remoteOutcome(at, { fencingToken: 1, outcome: 'FAILED', error: 'boom', retryable: false }, DAY_MS);
    expect(failed).toMatchObject({ status: S.FAILED, final: true });
  });
});

describe('RemoteAttempts: what a worker may touch', () => {
  const seat = { appId: 'app-a', nodeId: 'w-app-a-1' };
  const running = { id: 'i-1', appId: 'app-a', nodeId: seat.nodeId, status: S.RUNNING, fencingToken: 3, attempt: 1 };
  /** RemoteAttempts over recording parts; `row` is what the ledger reads for every id. */
  const make = (row: Partial<JobInstance>) => {
    const calls = { renew: 0, progress: 0, finish: 0 };
    const parts = [
      { findMany: async () => [row], claim: async () => [] },
      { renewLease: async () => (calls.renew++, true) },
      {},
      { report: () => void calls.progress++, end: async () => undefined },
      { keep: () => undefined, ended: async () => undefined },
      { finish: async () => (calls.finish++, { won: true, status: S.CANCELLED, final: true }) },
      { leaseMs: 10_000, longTasks: { maxRunTimeMs: 86_400_000 } },
      { now: () => 1_000, schedule: () => () => undefined },
      { startable: async <R>(rows: R[]) => rows },
    ];
    return { attempts: new (RemoteAttempts as unknown as new (...a: unknown[]) => RemoteAttempts)(...parts), calls };
  };

  it('should drop a progress report whose token is not the attempt running here (opens no window)', async () => {
    const { attempts, calls } = make(running);
    await attempts.reportProgress(seat, { instanceId: 'i-1', fencingToken: 1_000_000 }, 0.5);
    // a sibling node's live attempt is not found for it at all (NotFoundError)
    await expect(
      attempts.reportProgress({ ...seat, nodeId: 'w-app-a-2' }, { instanceId: 'i-1', fencingToken: 3 }, 0.5),
    ).rejects.toThrow('i-1');
    expect(calls.progress).toBe(0);
    await attempts.reportProgress(seat, { instanceId: 'i-1', fencingToken: 3 }, 0.5);
    expect(calls.progress).toBe(1);
  });

  it('should renew an attempt named many times in one leases call once', async () => {
    const { attempts, calls } = make(running);
    const ref = { instanceId: 'i-1', fencingToken: 3 };
    const answer = await attempts.renew(
      seat,
      Array.from({ length: 1000 }, () => ref),
    );
    expect(answer.lost).toEqual([]);
    expect(calls.renew).toBe(1);
  });

  it("should refuse a CANCELLED finish from a node other than the attempt's (409), take it from its own", async () => {
    const { attempts, calls } = make({ ...running, status: S.CANCELLED });
    const end = { fencingToken: 3, outcome: 'CANCELLED' as const };
    await expect(attempts.finish({ ...seat, nodeId: 'w-app-a-2' }, 'i-1', end)).rejects.toBeInstanceOf(ConflictError);
    expect(calls.finish).toBe(0);
    await expect(attempts.finish(seat, 'i-1', end)).resolves.toMatchObject({ won: true });
    expect(calls.finish).toBe(1);
  });
});

describe('RemoteAttempts: a claim whose answer was lost (docs/workers.md "Routes", claims)', () => {
  const seat = { appId: 'app-a', nodeId: 'w-app-a-1' };
  const dispatched = { id: 'i-1', appId: 'app-a', nodeId: seat.nodeId, status: S.DISPATCHED, fencingToken: 3 };
  const lost = () => Object.assign(new Error('Connection lost'), { code: 'PROTOCOL_CONNECTION_LOST', fatal: true });
  beforeEach(() => jest.useFakeTimers({ now: 1_000, doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  /** The claim UPDATE always loses its connection; `after` is the row the database shows once it answers again. */
  async function claimLosing(after: Partial<JobInstance>) {
    const finished: Array<{ token: number; outcome: unknown }> = [];
    let reads = 0;
    const parts = [
      { findMany: async () => [reads++ === 0 ? dispatched : after], claim: async () => Promise.reject(lost()) },
      {},
      {},
      {},
      {},
      { finish: async (run: { token: number; outcome: unknown }) => (finished.push(run), { won: true }) },
      { leaseMs: 10_000, longTasks: { maxRunTimeMs: 86_400_000 } },
      { now: () => Date.now(), schedule: () => () => undefined },
      { startable: async <R>(rows: R[]) => rows },
      { claimed: () => undefined },
    ];
    const attempts = new (RemoteAttempts as unknown as new (...a: unknown[]) => RemoteAttempts)(...parts);
    const answer = attempts.claim(seat, ['i-1']).catch((err: Error) => err);
    await jest.advanceTimersByTimeAsync(6_000);
    expect(await answer).toMatchObject({ code: 'PROTOCOL_CONNECTION_LOST' });
    await jest.advanceTimersByTimeAsync(100);
    return finished;
  }

  it('should hand back, no attempt used, the rows the claim had taken unseen', async () => {
    const finished = await claimLosing({ ...dispatched, status: S.RUNNING, fencingToken: 4, startedAt: 1_000 });
    expect(finished).toEqual([
      expect.objectContaining({ token: 4, outcome: expect.objectContaining({ status: 'HANDED_BACK' }) }),
    ]);
  });

  it("should leave alone rows the claim did not take (still DISPATCHED, or another claim's)", async () => {
    expect(await claimLosing(dispatched)).toEqual([]);
    expect(await claimLosing({ ...dispatched, status: S.RUNNING, fencingToken: 4, startedAt: 999 })).toEqual([]);
  });
});
