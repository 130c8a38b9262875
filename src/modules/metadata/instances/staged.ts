import type { JobInstance } from '../entities/job-instance.entity.js';
import { JobInstanceStatus as S } from '../state-machine/job-instance-status.js';
import { assertTransition } from '../state-machine/transitions.js';

/**
 * A row is **staged** when it was written ahead of its release time and no status write has touched it since; its
 * release (the push of its id, or its dispatch) then belongs to the leader's timing wheel (docs/trigger.md
 * "Staging", docs/dispatch.md "Delayed tasks"). The column `job_instance.staged` names it; NULL is not staged.
 *
 * - `FIRE`: a scheduled fire inserted ahead of its fire time by a firing page, DISPATCHED when routed, else PENDING.
 * - `DELAYED`: a delayed row (task, retry in backoff, hand-back, released WAITING) written DISPATCHED ahead of its
 *   due time by the delay-queue pump.
 *
 * Rules: a staged row is released at its `due_at` (a staged fire's is its fire time). Only the two staging writes
 * set the mark; every other status write clears it ({@link statusChange}), so a staged row is PENDING or
 * DISPATCHED and never started. The release of an unrouted staged row clears it before it dispatches; a routed
 * one's release is the push alone and its claim clears it.
 *
 * Takeback: a new leader hands a staged `FIRE` more than MISFIRE_THRESHOLD_MS past its fire time to the misfire
 * policy when PENDING (its release would have cleared the mark), or DISPATCHED and in no list of its node (only Redis
 * knows that). A released fire waiting for an executor is not a misfire.
 */
export enum StagedKind {
  FIRE = 'FIRE',
  DELAYED = 'DELAYED',
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
 * this is one of the two staging writes (`staging`). @throws SchedulerError(ILLEGAL_TRANSITION).
 */
export function statusChange(
  from: S | readonly S[],
  to: S,
  staging: StagedKind | null = null,
): { status: S; staged: StagedKind | null } {
  for (const f of [from].flat()) assertTransition(f, to);
  return { status: to, staged: staging };
}

/** Marks the rows of a firing page written ahead of their fire time (at `now`, epoch ms) as staged fires. */
export function markStagedFires(rows: JobInstance[], now: number): void {
  for (const row of rows) if (row.fireTime > now && STAGED_STATUSES.includes(row.status)) row.staged = StagedKind.FIRE;
}
