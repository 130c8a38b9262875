/**
 * Statuses of a job_attempt row: RUNNING, then the instance's outcome, HANDED_BACK (its node shut down) or
 * LEASE_LOST / NODE_LOST (taken back). A string union: the matching JobInstanceStatus members fit it.
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
