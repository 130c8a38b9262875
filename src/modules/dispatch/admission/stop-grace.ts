import type { AppConfig } from '../../../config/index.js';
import { type JobInstance, JobInstanceStatus } from '../../metadata/index.js';

/** The columns the stop grace is read from. */
export type StopGraceRow = Pick<JobInstance, 'status' | 'leaseUntil'>;

/** The stop grace, ms (docs/admission.md): as long as a silent, maybe frozen, executor keeps its RUNNING work. */
export function stopGraceMs(config: Pick<AppConfig, 'heartbeatIntervalMs' | 'nodeOfflineAfterMs'>): number {
  return Math.max(2 * config.heartbeatIntervalMs, config.nodeOfflineAfterMs);
}

/** When `row`'s stop grace ends (epoch ms), or null: a CANCELLED row's `lease_until` (it holds no lease). */
export function stopGraceUntil(row: StopGraceRow): number | null {
  return row.status === JobInstanceStatus.CANCELLED ? row.leaseUntil : null;
}

/** Whether `row` is a cancelled instance whose handler may still be stopping at `now` (epoch ms). */
export function inStopGrace(row: StopGraceRow, now: number): boolean {
  const until = stopGraceUntil(row);
  return until !== null && until > now;
}

/** The grace's end a cancel of `row` writes at `now`: only a RUNNING instance of a job has one. Epoch ms or null. */
export function stopGraceOnCancel(
  row: Pick<JobInstance, 'status' | 'jobId'>,
  now: number,
  graceMs: number,
): number | null {
  return row.status === JobInstanceStatus.RUNNING && row.jobId ? now + graceMs : null;
}
