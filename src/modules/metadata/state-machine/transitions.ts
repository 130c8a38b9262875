import { ErrorCode, SchedulerError } from '../../../common/index.js';
import { JobInstanceStatus as S } from './job-instance-status.js';

/**
 * The statuses a row may be inserted in (docs/state-machine.md "Initial statuses"): PENDING (to run), DISPATCHED
 * (a staged fire, already routed), WAITING (QUEUE overlap) or CANCELLED (skipped by overlap or misfire policy).
 */
export type InitialStatus = S.PENDING | S.DISPATCHED | S.WAITING | S.CANCELLED;

export const INITIAL_STATUSES: ReadonlySet<S> = new Set<InitialStatus>([
  S.PENDING,
  S.DISPATCHED,
  S.WAITING,
  S.CANCELLED,
]);

/**
 * The one table of allowed instance transitions (docs/state-machine.md); repositories assert each pair before
 * they write. Back to PENDING: released, taken back, retried (attempt + 1 in the same write), or re-run.
 * PENDING/DISPATCHED → FAILED: only the quarantine of a row whose data cannot be read (CORRUPT_ROW).
 */
export const TRANSITIONS: ReadonlyMap<S, ReadonlySet<S>> = new Map<S, ReadonlySet<S>>([
  [S.PENDING, new Set([S.DISPATCHED, S.WAITING, S.CANCELLED, S.FAILED])],
  [S.WAITING, new Set([S.PENDING, S.CANCELLED])],
  [S.DISPATCHED, new Set([S.RUNNING, S.PENDING, S.CANCELLED, S.FAILED])],
  [S.RUNNING, new Set([S.SUCCESS, S.FAILED, S.TIMEOUT, S.CANCELLED, S.PENDING])],
  [S.FAILED, new Set([S.PENDING])],
  [S.TIMEOUT, new Set([S.PENDING])],
  [S.SUCCESS, new Set<S>()],
  [S.CANCELLED, new Set<S>()],
]);

/** True when `from → to` is an allowed transition. */
export function canTransition(from: S, to: S): boolean {
  return TRANSITIONS.get(from)?.has(to) ?? false;
}

/** @throws SchedulerError(ILLEGAL_TRANSITION) when `from → to` is not in {@link TRANSITIONS}. */
export function assertTransition(from: S, to: S): void {
  if (!canTransition(from, to)) {
    throw new SchedulerError(ErrorCode.ILLEGAL_TRANSITION, `illegal job instance transition ${from} -> ${to}`);
  }
}
