import { ErrorCode, SchedulerError } from '../../../common/index.js';
import { JobInstanceStatus as S } from './job-instance-status.js';

/**
 * The statuses a new instance row may be written with: PENDING (to run), WAITING (QUEUE overlap: behind an
 * unfinished fire) or CANCELLED (SKIP overlap, a misfire skipped, a REPLACE victim of the same pass).
 */
export type InitialStatus = S.PENDING | S.WAITING | S.CANCELLED;

/** The {@link InitialStatus} values. */
export const INITIAL_STATUSES: ReadonlySet<S> = new Set<InitialStatus>([S.PENDING, S.WAITING, S.CANCELLED]);

/**
 * The one table of allowed instance transitions (docs/state-machine.md). Every status write is a conditional
 * UPDATE whose (from, to) pair must appear here; the repository calls {@link assertTransition} before it builds
 * the statement, so a wrong pair fails loudly in tests instead of corrupting a row.
 *
 * Edges back to PENDING: WAITING released; DISPATCHED whose node was lost (same attempt, it never ran); RUNNING
 * whose lease expired or node was lost, or that failed/timed out with retries left (attempt + 1 in the same
 * write); FAILED/TIMEOUT re-run by an operator. PENDING and DISPATCHED → FAILED: only the quarantine of a row
 * whose stored data cannot be read (CORRUPT_ROW): it can never run, so it ends where it stands.
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

/**
 * @throws SchedulerError(ILLEGAL_TRANSITION) when `from → to` is not in {@link TRANSITIONS}.
 */
export function assertTransition(from: S, to: S): void {
  if (!canTransition(from, to)) {
    throw new SchedulerError(ErrorCode.ILLEGAL_TRANSITION, `illegal job instance transition ${from} -> ${to}`);
  }
}
