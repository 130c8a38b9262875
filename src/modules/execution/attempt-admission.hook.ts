import type { JobInstance } from '../metadata/index.js';

/** Where a promoted instance goes to run: dispatch routes it at once, an executor uses the delay queue. */
export interface HandOff {
  handOff(promoted: JobInstance): Promise<unknown>;
}

/** An instance leaving its slot and turn: the columns admission reads. */
export type Leaver = Pick<JobInstance, 'id' | 'jobId' | 'maxConcurrency'>;

/**
 * What became of an executor's attempt, as admission needs to know it (docs/admission.md "Who reports what"):
 * `finished`, its finishing write won (`final`: the instance is over; else a retry or hand-back waits);
 * `finishLost`, its finishing write matched no row; `stopped`, its handler was stopped because the row was cancelled
 * or taken away. `fencingToken` is the attempt's: only a cancel of this very attempt leaves it a stop grace to end.
 */
export type AttemptEnd =
  { kind: 'finished'; final: boolean } | { kind: 'finishLost' | 'stopped'; fencingToken: number };

/** Admission as an executor uses it (docs/admission.md), declared here: dispatch's Admission implements it. */
export interface AttemptAdmission {
  /** Decides on `row`'s attempt end: which slot it frees, whether the stop grace ends, whom it promotes. */
  ended(row: Leaver, end: AttemptEnd, handOff: HandOff): Promise<void>;
}

export const ATTEMPT_ADMISSION = Symbol('ATTEMPT_ADMISSION'); // its token: ExecutionModule.forRoot takes its module
