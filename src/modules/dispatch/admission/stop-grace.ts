import type { AppConfig } from '../../../config/index.js';
import { type JobInstance, JobInstanceStatus } from '../../metadata/index.js';

/** The columns the stop grace is read from. */
export type StopGraceRow = Pick<JobInstance, 'status' | 'leaseUntil'>;

/**
 * The stop grace (docs/admission.md): a RUNNING instance that is cancelled keeps its job's maxConcurrency slot
 * and QUEUE turn until its executor says the handler stopped, or for at most this long (ms) when the executor
 * never answers. As long as a silent executor keeps its RUNNING work: NODE_OFFLINE_AFTER_MS, at least two
 * heartbeats. A silent executor may be frozen (GC pause, SIGSTOP) with its handler's call still open.
 */
export function stopGraceMs(config: Pick<AppConfig, 'heartbeatIntervalMs' | 'nodeOfflineAfterMs'>): number {
  return Math.max(2 * config.heartbeatIntervalMs, config.nodeOfflineAfterMs);
}

/**
 * When the stop grace of `row` ends (epoch ms), or null when it has none (not CANCELLED, or its executor ended
 * it). Stored in the CANCELLED row's `lease_until`: a CANCELLED row holds no lease, so the column is free.
 */
export function stopGraceUntil(row: StopGraceRow): number | null {
  return row.status === JobInstanceStatus.CANCELLED ? row.leaseUntil : null;
}

/** Whether `row` is a cancelled instance whose handler may still be stopping at `now` (epoch ms). */
export function inStopGrace(row: StopGraceRow, now: number): boolean {
  const until = stopGraceUntil(row);
  return until !== null && until > now;
}

/**
 * The stop grace a cancel of `row` (as read) writes with CANCELLED, at `now`: only a RUNNING instance of a job has
 * a handler to stop and a slot or turn to keep; a task of no job has neither. @returns epoch ms, or null.
 */
export function stopGraceOnCancel(row: Pick<JobInstance, 'status' | 'jobId'>, now: number, graceMs: number): number | null {
  return row.status === JobInstanceStatus.RUNNING && row.jobId ? now + graceMs : null;
}
