import { ErrorCode, SchedulerError } from '../../../common/index.js';
import type { JobInstance } from '../entities/job-instance.entity.js';
import { JobInstanceStatus as S } from '../state-machine/job-instance-status.js';
import { assertTransition } from '../state-machine/transitions.js';

/**
 * A row is **staged** when it was written ahead of its release time and no status write has touched it since; its
 * release (the push of its id, or its dispatch) then belongs to the leader's timing wheel (docs/state-machine.md
 * "Staged"). `FIRE`: a scheduled fire a firing page inserted ahead of its fire time (DISPATCHED when routed, else
 * PENDING); `DELAYED`: a delayed row the pump wrote DISPATCHED ahead of its due time. NULL: not staged.
 *
 * Rules: a staged row is released at its `due_at`. Only {@link STAGING_WRITES} leave the mark set; every other
 * status write clears it ({@link statusChange}), so a staged row is PENDING or DISPATCHED and never started. A routed
 * row's release is the push alone (its claim clears the mark); a due staged row's dispatch is its release (the
 * PENDING→DISPATCHED write clears it, or one UPDATE when no node takes the row). A fire handed back before its node
 * got its id stays staged, unrouted. Takeback: a new leader hands a staged `FIRE` more than MISFIRE_THRESHOLD_MS
 * past its fire time to the misfire policy when PENDING, or DISPATCHED and in no list of its node (only Redis knows
 * that). A released fire waiting for an executor is not a misfire.
 */
export enum StagedKind {
  FIRE = 'FIRE',
  DELAYED = 'DELAYED',
}

/** The writes that leave a row staged: the pump's stage write, the hand-back of a fire its node never got. */
export const STAGING_WRITES: ReadonlyArray<{ from: S; to: S; kind: StagedKind }> = [
  { from: S.PENDING, to: S.DISPATCHED, kind: StagedKind.DELAYED },
  { from: S.DISPATCHED, to: S.PENDING, kind: StagedKind.FIRE },
];

/**
 * The mark a DISPATCHED → PENDING hand-back of `row` leaves, given the ids its node's lists held when emptied
 * (`pushed`): a staged fire whose id they did not hold was never released and stays staged; any other row, not.
 */
export function handBackMark(row: Pick<JobInstance, 'id' | 'staged'>, pushed: ReadonlySet<string>): StagedKind | null {
  return row.staged === StagedKind.FIRE && !pushed.has(row.id) ? StagedKind.FIRE : null;
}

/** True when `from → to` writing staged `kind` is one of {@link STAGING_WRITES}. */
export function isStagingWrite(from: S, to: S, kind: StagedKind): boolean {
  return STAGING_WRITES.some((w) => w.from === from && w.to === to && w.kind === kind);
}

/** The statuses a staged row can be in; queries name them so they run on ix_job_instance_status_fire. */
export const STAGED_STATUSES: readonly S[] = [S.PENDING, S.DISPATCHED];

/** A SQL condition with its `?` parameters, in order. */
export interface SqlCondition {
  sql: string;
  params: unknown[];
}

/** The one predicate of staged rows (of `kind`, or any), columns of table alias `alias` ('' for none). */
export function stagedWhere(alias: string, kind?: StagedKind): SqlCondition {
  const a = alias ? `${alias}.` : '';
  return {
    sql: `${a}status IN (?, ?) AND ${a}staged ${kind ? '= ?' : 'IS NOT NULL'}`,
    params: [...STAGED_STATUSES, ...(kind ? [kind] : [])],
  };
}

/**
 * The status and mark a status write sets: asserts every `from → to` against TRANSITIONS, and clears the mark unless
 * `staging` names one of {@link STAGING_WRITES}. @throws SchedulerError(ILLEGAL_TRANSITION) for either.
 */
export function statusChange(
  from: S | readonly S[],
  to: S,
  staging: StagedKind | null = null,
): { status: S; staged: StagedKind | null } {
  for (const f of [from].flat()) {
    assertTransition(f, to);
    if (staging !== null && !isStagingWrite(f, to, staging))
      throw new SchedulerError(ErrorCode.ILLEGAL_TRANSITION, `${f} -> ${to} does not leave a row staged ${staging}`);
  }
  return { status: to, staged: staging };
}

/** Marks the rows of a firing page written ahead of their fire time (at `now`, epoch ms) as staged fires. */
export function markStagedFires(rows: JobInstance[], now: number): void {
  for (const row of rows) if (row.fireTime > now && STAGED_STATUSES.includes(row.status)) row.staged = StagedKind.FIRE;
}
