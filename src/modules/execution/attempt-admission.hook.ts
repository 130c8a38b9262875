import type { JobInstance } from '../metadata/index.js';

/** Where a promoted instance goes to run: dispatch routes it at once, an executor uses the delay queue. */
export interface HandOff {
  handOff(promoted: JobInstance): Promise<unknown>;
}

/** An instance leaving its slot and turn: the columns admission reads. */
export type Leaver = Pick<JobInstance, 'id' | 'jobId' | 'maxConcurrency'>;

/** Admission as an executor uses it (docs/admission.md), declared here: dispatch's Admission implements it. */
export interface AttemptAdmission {
  free(row: Leaver, handOff: HandOff, promote?: boolean): Promise<void>;
  promoteNext(jobId: string, handOff: HandOff): Promise<void>;
  stopGraceEnded(row: Leaver, fencingToken: number, handOff: HandOff): Promise<void>;
}

export const ATTEMPT_ADMISSION = Symbol('ATTEMPT_ADMISSION'); // its token: ExecutionModule.forRoot takes its module
