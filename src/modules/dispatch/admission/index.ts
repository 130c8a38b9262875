export { Admission, type InstanceEnd } from './admission.service.js';
export { AdmissionModule } from './admission.module.js';
export { JobSemaphore, type SlotHolder } from './job-semaphore.js';
export { inStopGrace, stopGraceMs, stopGraceOnCancel, stopGraceUntil, type StopGraceRow } from './stop-grace.js';
export { turnRule, type TurnRule, WaitingTurns } from './waiting-turns.js';
