import { BackoffKind, type JobInstance, JobInstanceStatus as S } from '../metadata/index.js';
import { backoffDelayMs, boundError, boundResult } from './outcome.util.js';

/** How a handler's attempt ended here (`final`: never retried; HANDED_BACK: aborted by this node's shutdown). */
export type AttemptOutcome =
  | { status: S.SUCCESS; result: unknown }
  | { status: S.FAILED | S.TIMEOUT | S.CANCELLED; error: string; result?: unknown; final?: boolean }
  | { status: 'HANDED_BACK'; error: string; result?: unknown };

/** Why the reconciler takes a RUNNING row away from its node. */
export type TakeBackReason = 'NODE_LOST' | 'LEASE_LOST';

/** What ended: a handler here (`ran`), a RUNNING row whose node or lease is lost, a DISPATCHED row never started. */
export type Ending =
  { kind: 'ran'; outcome: AttemptOutcome } | { kind: 'takenBack'; reason: TakeBackReason } | { kind: 'notStarted' };

/** RETRY uses up an attempt, HAND_BACK does not; CANCELLED: the canceller moved the row, only the attempt closes. */
export type Verdict = 'SUCCEED' | 'FAIL' | 'RETRY' | 'HAND_BACK' | 'CANCELLED';

/** The row write an {@link Ending} calls for: new status, transition patch, due time again (epoch ms UTC). */
export interface Decision {
  verdict: Verdict;
  status: S;
  patch: Partial<JobInstance>;
  dueAt: number;
}

type PolicyRow = Pick<
  JobInstance,
  'attempt' | 'maxAttempts' | 'retryBackoffMs' | 'retryBackoffKind' | 'nodeId' | 'dueAt'
>;

/**
 * The one retry-or-fail decision (docs/execution.md), for the runner and the reconciler alike. A failure retries
 * after the backoff while attempt < maxAttempts unless final; a lost node or lease retries at once (the handler
 * did not fail) or fails; a shutdown hands back (maxAttempts+1: costs no attempt); a row never started goes back
 * at the same attempt. Results and errors are bounded to their columns. `now`: epoch ms UTC.
 */
export function decideOutcome(row: PolicyRow, ending: Ending, now: number, random = Math.random): Decision {
  const retryPatch = (dueAt: number, error: string) => ({
    attempt: row.attempt + 1,
    nodeId: null,
    leaseUntil: null,
    dispatchedAt: null,
    dueAt,
    error: boundError(error),
  });
  if (ending.kind === 'notStarted') {
    const patch = { nodeId: null, dispatchedAt: null };
    return { verdict: 'HAND_BACK', status: S.PENDING, patch, dueAt: Math.max(row.dueAt, now) };
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
    const patch = { result, error: null, leaseUntil: null, finishedAt: now };
    return { verdict: 'SUCCEED', status: S.SUCCESS, patch, dueAt: now };
  }
  if (outcome.final !== true && attemptsLeft) {
    const dueAt = now + backoffDelayMs(row.retryBackoffMs, row.retryBackoffKind as BackoffKind, row.attempt, random);
    return { verdict: 'RETRY', status: S.PENDING, patch: { ...retryPatch(dueAt, outcome.error), result }, dueAt };
  }
  const error = boundError(outcome.error);
  const patch = { result, error, leaseUntil: null, finishedAt: now };
  return { verdict: 'FAIL', status: outcome.status, patch, dueAt: now };
}
