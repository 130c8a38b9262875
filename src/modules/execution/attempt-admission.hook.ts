import type { Admission } from '../dispatch/index.js';

/** Admission as an executor uses it (docs/admission.md); execution imports its type only, dispatch provides it. */
export type AttemptAdmission = Pick<Admission, 'free' | 'promoteNext' | 'stopGraceEnded'>;

export const ATTEMPT_ADMISSION = Symbol('ATTEMPT_ADMISSION'); // its token: ExecutionModule.forRoot takes its module
