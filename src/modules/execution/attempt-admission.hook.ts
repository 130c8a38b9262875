import type { JobInstance } from '../metadata/index.js';

/** Where a promoted instance goes to run: dispatch routes it at once, an executor uses the delay queue. */
export interface HandOff {
  handOff(promoted: JobInstance): Promise<unknown>;
}

/** An instance leaving its slot and turn: the columns admission reads. */
export type Leaver = Pick<JobInstance, 'id' | 'jobId' | 'maxConcurrency'>;

/**
 * An executor's attempt end (docs/admission.md "Who reports what"): its finishing write won (`final`, or a retry
 * waits), matched no row, or its handler was `stopped` (row cancelled or taken away), by the attempt's token.
 */
export type AttemptEnd =
  { kind: 'finished'; final: boolean } | { kind: 'finishLost' | 'stopped'; fencingToken: number };

/** Admission as an executor uses it (docs/admission.md), declared here: dispatch's Admission implements it. */
export interface AttemptAdmission {
  /** Decides on `row`'s attempt end: which slot it frees, whether the stop grace ends, whom it promotes. */
  ended(row: Leaver, end: AttemptEnd, handOff: HandOff): Promise<void>;
}

export const ATTEMPT_ADMISSION = Symbol('ATTEMPT_ADMISSION'); // its token: ExecutionModule.forRoot takes its module
