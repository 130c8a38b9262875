import type { Admission } from '../dispatch/index.js';

/**
 * Admission as an executor uses it when an attempt ends (docs/admission.md): free the slot and promote the next
 * WAITING instance, end a cancelled handler's stop grace. Dispatch's AdmissionModule provides it; execution imports
 * only its type, so dispatch (whose reconciler uses the outcome policy) may import execution.
 */
export type AttemptAdmission = Pick<Admission, 'free' | 'promoteNext' | 'stopGraceEnded'>;

/** Injection token of the {@link AttemptAdmission}; `ExecutionModule.forRoot` takes the module providing it. */
export const ATTEMPT_ADMISSION = Symbol('ATTEMPT_ADMISSION');
