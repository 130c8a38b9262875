import type { JobInstanceStatus } from '../metadata/index.js';

/** An attempt whose finishing write won: its new status (`final`: no retry or hand-back), at epoch ms UTC. */
export interface AttemptEnded {
  instanceId: string;
  jobId: string | null;
  status: JobInstanceStatus;
  final: boolean;
  at: number;
}

/**
 * Told of every attempt whose finishing write won, after its slot was released. The trigger module provides it
 * (FIXED_DELAY's next fire), so execution computes no schedule. What it throws is logged; the write stays.
 */
export interface AttemptEndedHook {
  attemptEnded(ended: AttemptEnded): Promise<void>;
}

/** Injection token of the {@link AttemptEndedHook}; `ExecutionModule.forRoot` takes the module providing it. */
export const ATTEMPT_ENDED_HOOK = Symbol('ATTEMPT_ENDED_HOOK');
