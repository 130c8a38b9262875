import { BackoffKind, JobInstance, JobInstanceStatus as S } from '../metadata/index.js';
import { AbortReason, abortedOutcome, abortReasonOf, failedOutcome } from './abort-reason.js';
import { JobFailure } from '../handler/index.js';
import { decideOutcome } from './outcome-policy.js';

const NOW = 1_800_000_000_000;

/** The one retry-or-fail decision, for the runner's finishing write and the reconciler's take-back. */
describe('decideOutcome', () => {
  const row = (attempt: number, maxAttempts: number) =>
    Object.assign(new JobInstance(), {
      attempt,
      maxAttempts,
      retryBackoffMs: 500,
      retryBackoffKind: BackoffKind.FIXED,
      nodeId: 'n-1',
      dueAt: NOW - 10,
    });
  const failed = { status: S.FAILED, error: 'boom', result: { r: 1 } } as const;

  it('should retry a failure while attempts remain, after the backoff, keeping the result', () => {
    expect(decideOutcome(row(1, 2), { kind: 'ran', outcome: failed }, NOW)).toEqual({
      verdict: 'RETRY',
      status: S.PENDING,
      dueAt: NOW + 500,
      patch: {
        attempt: 2,
        nodeId: null,
        leaseUntil: null,
        dispatchedAt: null,
        dueAt: NOW + 500,
        error: 'boom',
        result: { r: 1 },
      },
    });
  });

  it('should fail a failure on its last attempt, and a final one whatever attempts are left', () => {
    const patch = { result: { r: 1 }, error: 'boom', leaseUntil: null, finishedAt: NOW };
    expect(decideOutcome(row(2, 2), { kind: 'ran', outcome: failed }, NOW)).toMatchObject({
      verdict: 'FAIL',
      status: S.FAILED,
      patch,
    });
    const final = { ...failed, final: true };
    expect(decideOutcome(row(1, 5), { kind: 'ran', outcome: final }, NOW)).toMatchObject({ verdict: 'FAIL', patch });
    const timeout = { status: S.TIMEOUT, error: 'timed out after 5 ms' } as const;
    expect(decideOutcome(row(1, 1), { kind: 'ran', outcome: timeout }, NOW)).toMatchObject({
      verdict: 'FAIL',
      status: S.TIMEOUT,
    });
  });

  it('should succeed with the result and no error', () => {
    const ok = decideOutcome(row(1, 1), { kind: 'ran', outcome: { status: S.SUCCESS, result: undefined } }, NOW);
    const patch = { result: null, error: null, finishedAt: NOW };
    expect(ok).toMatchObject({ verdict: 'SUCCEED', status: S.SUCCESS, patch });
  });

  it('should hand a shut-down attempt back at once without using up an attempt', () => {
    const back = decideOutcome(row(3, 3), { kind: 'ran', outcome: { status: 'HANDED_BACK', error: 'shut down' } }, NOW);
    expect(back).toMatchObject({
      verdict: 'HAND_BACK',
      status: S.PENDING,
      dueAt: NOW,
      patch: { attempt: 4, maxAttempts: 4, nodeId: null, dueAt: NOW, error: 'shut down' },
    });
    expect(back.patch).not.toHaveProperty('result');
  });

  it('should only close the attempt of a cancelled one', () => {
    const cancelled = decideOutcome(row(1, 3), { kind: 'ran', outcome: { status: S.CANCELLED, error: 'x' } }, NOW);
    expect(cancelled).toMatchObject({ verdict: 'CANCELLED', status: S.CANCELLED, patch: {} });
  });

  it('should retry a lost node or lease at once, or fail it when no attempt is left', () => {
    expect(decideOutcome(row(1, 2), { kind: 'takenBack', reason: 'NODE_LOST' }, NOW)).toEqual({
      verdict: 'RETRY',
      status: S.PENDING,
      dueAt: NOW,
      patch: { attempt: 2, nodeId: null, leaseUntil: null, dispatchedAt: null, dueAt: NOW, error: 'NODE_LOST' },
    });
    expect(decideOutcome(row(2, 2), { kind: 'takenBack', reason: 'LEASE_LOST' }, NOW)).toEqual({
      verdict: 'FAIL',
      status: S.FAILED,
      dueAt: NOW,
      patch: { leaseUntil: null, finishedAt: NOW, error: 'LEASE_LOST: n-1 stopped and no attempt is left' },
    });
  });

  it('should put a row that never started back at the same attempt', () => {
    expect(decideOutcome(row(2, 2), { kind: 'notStarted' }, NOW)).toEqual({
      verdict: 'HAND_BACK',
      status: S.PENDING,
      dueAt: NOW,
      patch: { nodeId: null, dispatchedAt: null },
    });
  });
});

describe('AbortReason', () => {
  const aborted = (reason: AbortReason) => {
    const c = new AbortController();
    c.abort(new Error(reason));
    return c.signal;
  };

  it('should read the reason of an aborted signal, and none of another', () => {
    expect(abortReasonOf(aborted(AbortReason.LEASE_LOST))).toBe(AbortReason.LEASE_LOST);
    expect(abortReasonOf(new AbortController().signal)).toBeNull();
    const other = new AbortController();
    other.abort();
    expect(abortReasonOf(other.signal)).toBeNull();
  });

  it('should map every reason to its outcome; LEASE_LOST to the plain failure its rejection makes', () => {
    const HARD_5 = { ms: 5, reason: 'TIMEOUT' } as const;
    expect(abortedOutcome(AbortReason.MAX_RUN_TIME, { ms: 9000, reason: 'MAX_RUN_TIME' }, null)).toEqual({
      status: S.TIMEOUT,
      error: 'MAX_RUN_TIME_MS: still running after the longest run allowed, 9000 ms',
    });
    expect(abortedOutcome(AbortReason.TIMEOUT, HARD_5, null)).toEqual({
      status: S.TIMEOUT,
      error: 'timed out after 5 ms',
    });
    expect(abortedOutcome(AbortReason.SHUTDOWN, HARD_5, null)).toEqual({
      status: 'HANDED_BACK',
      error: 'node shut down before the handler finished',
    });
    expect(abortedOutcome(AbortReason.REVOKED, HARD_5, null)).toEqual({
      status: S.CANCELLED,
      error: 'cancelled (or taken away) while running',
    });
    expect(abortedOutcome(AbortReason.HEARTBEAT_TIMEOUT, { ms: 5000, reason: 'TIMEOUT' }, null, 1500)).toEqual({
      status: S.TIMEOUT,
      error: 'HEARTBEAT_TIMEOUT: no progress, heartbeat or checkpoint for 1500 ms',
    });
    expect(abortedOutcome(AbortReason.LEASE_LOST, HARD_5, new Error('LEASE_LOST'))).toEqual({
      status: S.FAILED,
      error: 'LEASE_LOST',
      result: undefined,
      final: false,
    });
  });

  it("should name a non-Error failure and keep a JobFailure's result", () => {
    const f = new JobFailure('HTTP 500', { status: 500 }, { retryable: false });
    const expected = { status: S.FAILED, error: 'JobFailure: HTTP 500', result: { status: 500 }, final: true };
    expect(failedOutcome(f)).toEqual(expected);
  });
});
