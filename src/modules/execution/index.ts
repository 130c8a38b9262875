export { ExecutionModule, type ExecutionHooks, type ExecutionModuleOptions } from './execution.module.js';
export { ExecutionCoreModule } from './execution-core.module.js';
export { AppStatesModule } from './app-states.module.js';
export { APP_STATES_TTL_MS, AppStates } from './app-states.js';
export { JOB_METRICS_REFRESH_MS, JobRunMetrics, JobRunMetricsModule } from './job-run-metrics.js';
export { type AttemptRef, RemoteAttempts, type WorkerSeat } from './remote-attempts.js';
export { type FinishResult } from './attempt-finish.js';
export { BUILTIN_HANDLERS, checkBuiltinParams } from './builtin/builtin-params.js';
export { ExecutorService } from './executor.service.js';
export { HandlerRegistry } from './handler-registry.service.js';
export {
  JobHandler,
  CheckpointRejected,
  JobFailure,
  type Checkpoint,
  type HandlerLog,
  type JobContext,
  type JobHandlerImpl,
  type JobResult,
} from '../handler/index.js';
export { AbortReason } from './abort-reason.js';
export { ATTEMPT_ENDED_HOOK, type AttemptEnded, type AttemptEndedHook } from './attempt-ended.hook.js';
export {
  ATTEMPT_ADMISSION,
  type AttemptAdmission,
  type AttemptEnd,
  type HandOff,
  type Leaver,
} from './attempt-admission.hook.js';
export {
  type AttemptOutcome,
  type Decision,
  type Ending,
  type TakeBackReason,
  type Verdict,
  decideOutcome,
} from './outcome-policy.js';
