import { ErrorCode, SchedulerError } from '../../../common/index.js';
import { JobInstanceStatus as S } from './job-instance-status.js';

/**
 * The one table of allowed instance transitions (DESIGN §4). Every status write in the code base is a
 * conditional UPDATE whose (from, to) pair must appear here; {@link assertTransition} is called by the
 * repository before it builds the statement, so a wrong pair fails loudly in tests instead of silently
 * corrupting a row.
 *
 * Edges back to PENDING: WAITING released; DISPATCHED whose node was lost (same attempt, it never ran);
 * RUNNING whose lease expired or node was lost, or that failed/timed out with retries left
 * (attempt + 1 in the same write, so a crash cannot leave a retry half-made); FAILED/TIMEOUT re-run by an
 * operator.
 *
 * PENDING and DISPATCHED → FAILED: only the quarantine of a row whose stored data cannot be read (CORRUPT_ROW,
 * issue 9): it can never run, so it ends where it stands rather than stop the loop that met it.
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
