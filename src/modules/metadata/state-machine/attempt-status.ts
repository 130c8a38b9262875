/**
 * Statuses of a job_attempt row: RUNNING while the attempt runs, then how it ended: the instance's outcome
 * (SUCCESS, FAILED, TIMEOUT, CANCELLED), handed back by its node as it shut down (HANDED_BACK), or taken
 * away by the reconciler (LEASE_LOST, NODE_LOST).
 * A string union, so the matching JobInstanceStatus members are AttemptStatus values too.
 */
export const AttemptStatus = {
  RUNNING: 'RUNNING',
  SUCCESS: 'SUCCESS',
  FAILED: 'FAILED',
  TIMEOUT: 'TIMEOUT',
  CANCELLED: 'CANCELLED',
  HANDED_BACK: 'HANDED_BACK',
  LEASE_LOST: 'LEASE_LOST',
  NODE_LOST: 'NODE_LOST',
} as const;

export type AttemptStatus = (typeof AttemptStatus)[keyof typeof AttemptStatus];

/** How an attempt can end (every {@link AttemptStatus} but RUNNING). */
export type AttemptEnd = Exclude<AttemptStatus, 'RUNNING'>;
