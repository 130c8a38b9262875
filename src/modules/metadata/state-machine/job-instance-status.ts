/** Lifecycle states of a job instance (docs/state-machine.md). */
export enum JobInstanceStatus {
  PENDING = 'PENDING',
  WAITING = 'WAITING',
  DISPATCHED = 'DISPATCHED',
  RUNNING = 'RUNNING',
  SUCCESS = 'SUCCESS',
  FAILED = 'FAILED',
  TIMEOUT = 'TIMEOUT',
  CANCELLED = 'CANCELLED',
}

/** States no transition leaves except an explicit retry of FAILED/TIMEOUT. */
export const FINAL_STATUSES: ReadonlySet<JobInstanceStatus> = new Set([
  JobInstanceStatus.SUCCESS,
  JobInstanceStatus.FAILED,
  JobInstanceStatus.TIMEOUT,
  JobInstanceStatus.CANCELLED,
]);
