import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { JobInstanceStatus as S } from '../state-machine/job-instance-status.js';
import { marks, runStatement, STATEMENT_ROWS } from './raw-statement.js';

/** A progress report to store (docs/long-tasks.md "Progress"): fraction 0..1, note ≤ 256 chars, at epoch ms. */
export interface ProgressReport {
  instanceId: string;
  fencingToken: number;
  progress: number;
  note: string | null;
  at: number;
}

/** How a handler really ended, written when it was not part of its attempt's finishing write. */
export interface HandlerEnd {
  instanceId: string;
  attempt: number;
  fencingToken: number;
  /** When the handler returned, epoch ms UTC. */
  endedAt: number;
  /** Set when it returned after its attempt's outcome was decided (docs/long-tasks.md "Late completions"). */
  late: { status: 'SUCCESS' | 'FAILED'; error: string | null } | null;
}

const MAX_LATE_ERROR = 1024;

/**
 * What a running handler reports besides its outcome: progress on the instance row, and its real end on the
 * attempt row (late completions, overlaps). Every write is conditional: a stale attempt changes nothing.
 */
@Injectable()
export class AttemptReportRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * Stores many progress reports, one UPDATE per STATEMENT_ROWS; each row only while RUNNING at its fencing token
   * (a report still pending when its attempt ended lands nowhere). Instance ids must be distinct.
   * @returns how many rows changed.
   */
  async writeProgress(reports: ProgressReport[]): Promise<number> {
    let changed = 0;
    for (let i = 0; i < reports.length; i += STATEMENT_ROWS) {
      const part = reports.slice(i, i + STATEMENT_ROWS);
      const when = part.map(() => 'WHEN ? THEN ?').join(' ');
      const res = await runStatement(
        this.ds,
        undefined,
        `UPDATE job_instance SET progress = CASE id ${when} END, progress_note = CASE id ${when} END,
           progress_at = CASE id ${when} END
         WHERE id IN (${marks(part.length)}) AND status = ?
           AND CASE id ${when.replace(/THEN \?/g, 'THEN fencing_token = ?')} END`,
        [
          ...part.flatMap((r) => [r.instanceId, r.progress]),
          ...part.flatMap((r) => [r.instanceId, r.note]),
          ...part.flatMap((r) => [r.instanceId, r.at]),
          ...part.map((r) => r.instanceId),
          S.RUNNING,
          ...part.flatMap((r) => [r.instanceId, r.fencingToken]),
        ],
      );
      changed += res.affected ?? 0;
    }
    return changed;
  }

  /**
   * Records a handler's real end on its attempt row (and the late outcome, if any), then marks the later attempts
   * of the same instance that started before that end as overlapping it. Never touches the instance.
   */
  async recordHandlerEnd(end: HandlerEnd): Promise<void> {
    await runStatement(
      this.ds,
      undefined,
      `UPDATE job_attempt SET handler_ended_at = ?, late_status = ?, late_error = ?
       WHERE instance_id = ? AND attempt = ? AND fencing_token = ?`,
      [
        end.endedAt,
        end.late?.status ?? null,
        end.late?.error ? end.late.error.slice(0, MAX_LATE_ERROR) : null,
        end.instanceId,
        end.attempt,
        end.fencingToken,
      ],
    );
    await runStatement(
      this.ds,
      undefined,
      `UPDATE job_attempt SET overlaps_previous = ?
       WHERE instance_id = ? AND fencing_token > ? AND started_at < ? AND overlaps_previous = ?`,
      [1, end.instanceId, end.fencingToken, end.endedAt, 0],
    );
  }
}
