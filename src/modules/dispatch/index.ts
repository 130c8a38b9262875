export { DispatchModule } from './dispatch.module.js';
export { DELAY_PUMP_MS, DispatchService, type DispatchOutcome, type Release } from './dispatch.service.js';
export { mayTake, NodeRegistryService } from './node-registry.service.js';
export { TakeBack } from './take-back.js';
export { UNADVERTISED_SCAN_MAX, type UnadvertisedWait, UnadvertisedWaits } from './unadvertised-waits.js';
export { ReconcilerService } from './reconciler.service.js';
export { DelayPump } from './delay-pump.js';
export { CancelService, type InCancelTransaction } from './cancel.service.js';
export {
  Admission,
  AdmissionModule,
  inStopGrace,
  JobSemaphore,
  stopGraceMs,
  stopGraceUntil,
  WaitingTurns,
} from './admission/index.js';
