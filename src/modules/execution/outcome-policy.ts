import { BackoffKind, type JobInstance, JobInstanceStatus as S } from '../metadata/index.js';
import { backoffDelayMs, boundError, boundResult } from './outcome.util.js';

/** How a handler's attempt ended on this node. */
export type AttemptOutcome =
  | { status: S.SUCCESS; result: unknown }
  /** `final`: no retry whatever attempts are left (JobFailure.retryable false; a row whose data cannot be read). */
  | { status: S.FAILED | S.TIMEOUT | S.CANCELLED; error: string; result?: unknown; final?: boolean }
  /** Aborted by this node's shutdown: handed back without using up an attempt. */
  | { status: 'HANDED_BACK'; error: string; result?: unknown };

/** Why the reconciler takes a RUNNING row away from its node. */
export type TakeBackReason = 'NODE_LOST' | 'LEASE_LOST';

/** What ended, as the policy reads it. */
export type Ending =
  /** A RUNNING attempt whose handler ended here. */
  | { kind: 'ran'; outcome: AttemptOutcome }
  /** A RUNNING row whose node went silent or whose lease ran out (it may have run). */
  | { kind: 'takenBack'; reason: TakeBackReason }
  /** A DISPATCHED row that never started (its node drains or is gone). */
  | { kind: 'notStarted' };

/**
 * SUCCEED, FAIL (final status), RETRY (PENDING, attempt+1, uses up an attempt), HAND_BACK (PENDING without
 * using up an attempt), or CANCELLED (the canceller already moved the row: only the attempt row closes).
 */
export type Verdict = 'SUCCEED' | 'FAIL' | 'RETRY' | 'HAND_BACK' | 'CANCELLED';

/** The row write an {@link Ending} calls for. */
export interface Decision {
  verdict: Verdict;
  /** The row's new status (PENDING for RETRY and HAND_BACK). */
  status: S;
  /** The transition's patch (empty for CANCELLED). */
  patch: Partial<JobInstance>;
  /** When the row is due again (RETRY, HAND_BACK), epoch ms UTC. */
  dueAt: number;
}

type PolicyRow = Pick<JobInstance, 'attempt' | 'maxAttempts' | 'retryBackoffMs' | 'retryBackoffKind' | 'nodeId' | 'dueAt'>;

/**
 * The one retry-or-fail decision (docs/execution.md), for the runner's finishing write and the reconciler's
 * take-back alike. A failure retries while attempts remain (attempt < maxAttempts) unless it is final, after
 * the instance's backoff; a node or lease lost retries at once (the handler did not fail) or fails when no
 * attempt is left; a shutdown hands the attempt back (maxAttempts+1, so it costs none); a row that never
 * started goes back to PENDING at the same attempt. Results and errors are bounded to their columns.
 * @param now epoch ms UTC; `random` feeds the exponential backoff's jitter.
 */
export function decideOutcome(row: PolicyRow, ending: Ending, now: number, random = Math.random): Decision {
  const retryPatch = (dueAt: number, error: string) => ({
    attempt: row.attempt + 1, nodeId: null, leaseUntil: null, dispatchedAt: null, dueAt, error: boundError(error),
  });
  if (ending.kind === 'notStarted') {
    return { verdict: 'HAND_BACK', status: S.PENDING, patch: { nodeId: null, dispatchedAt: null }, dueAt: Math.max(row.dueAt, now) };
  }
  const attemptsLeft = row.attempt < row.maxAttempts;
  if (ending.kind === 'takenBack') {
    const { reason } = ending;
    if (attemptsLeft) return { verdict: 'RETRY', status: S.PENDING, patch: retryPatch(now, reason), dueAt: now };
    const error = boundError(`${reason}: ${row.nodeId} stopped and no attempt is left`);
    return { verdict: 'FAIL', status: S.FAILED, patch: { leaseUntil: null, finishedAt: now, error }, dueAt: now };
  }
  const { outcome } = ending;
  if (outcome.status === S.CANCELLED) return { verdict: 'CANCELLED', status: S.CANCELLED, patch: {}, dueAt: now };
  if (outcome.status === 'HANDED_BACK') {
    const patch = { ...retryPatch(now, outcome.error), maxAttempts: row.maxAttempts + 1 };
    return { verdict: 'HAND_BACK', status: S.PENDING, patch, dueAt: now };
  }
  const result = boundResult(outcome.result);
  if (outcome.status === S.SUCCESS) {
    return { verdict: 'SUCCEED', status: S.SUCCESS, patch: { result, error: null, leaseUntil: null, finishedAt: now }, dueAt: now };
  }
  if (outcome.final !== true && attemptsLeft) {
    const dueAt = now + backoffDelayMs(row.retryBackoffMs, row.retryBackoffKind as BackoffKind, row.attempt, random);
    return { verdict: 'RETRY', status: S.PENDING, patch: { ...retryPatch(dueAt, outcome.error), result }, dueAt };
  }
  const error = boundError(outcome.error);
  return { verdict: 'FAIL', status: outcome.status, patch: { result, error, leaseUntil: null, finishedAt: now }, dueAt: now };
}
