import type { JobInstanceStatus } from '../metadata/index.js';

/** An attempt whose finishing write won on this node. */
export interface AttemptEnded {
  instanceId: string;
  /** The job definition, or null for an API task. */
  jobId: string | null;
  /** The row's new status (PENDING for a retry or a hand-back). */
  status: JobInstanceStatus;
  /** Whether the instance is over (no retry, no hand-back). */
  final: boolean;
  /** When the write's follow-ups began, epoch ms UTC. */
  at: number;
}

/**
 * Told of every attempt whose finishing write won, after its admission slot and QUEUE turn were released.
 * The trigger module provides it (FIXED_DELAY's next fire is counted from the final finish), so execution
 * does not compute schedules. An error it throws is logged with the instance; the write stays.
 */
export interface AttemptEndedHook {
  attemptEnded(ended: AttemptEnded): Promise<void>;
}

/** Injection token of the {@link AttemptEndedHook}; `ExecutionModule.forRoot` takes the module providing it. */
export const ATTEMPT_ENDED_HOOK = Symbol('ATTEMPT_ENDED_HOOK');
