export { DispatchModule } from './dispatch.module.js';
export { DELAY_PUMP_MS, DispatchService, type DispatchOutcome, type Release } from './dispatch.service.js';
export { NodeRegistryService } from './node-registry.service.js';
export { ReconcilerService } from './reconciler.service.js';
export { CancelService, type InCancelTransaction } from './cancel.service.js';
export {
  Admission,
  AdmissionModule,
  type HandOff,
  inStopGrace,
  JobSemaphore,
  type Leaver,
  stopGraceMs,
  stopGraceUntil,
  WaitingTurns,
} from './admission/index.js';
