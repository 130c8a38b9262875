// `tickwheel/worker`: the app worker SDK (docs/workers.md "The TypeScript SDK"). It loads no database driver,
// TypeORM or Redis client: only the handler contract, request signing and Nest.
export {
  CheckpointRejected,
  JobFailure,
  JobHandler,
  type Checkpoint,
  type HandlerLog,
  type JobContext,
  type JobHandlerImpl,
  type JobResult,
} from '../modules/handler/index.js';
export { BUILTIN_HANDLER_NAMES, TickwheelWorker, type TickwheelWorkerOptions } from './tickwheel-worker.js';
export { TickwheelWorkerModule, TickwheelWorkerService, WORKER_OPTIONS } from './worker.module.js';
export { resolveWorkerOptions, WORKER_ENV, type WorkerHandler, type WorkerOptions } from './worker-options.js';
export {
  WorkerApi,
  WorkerApiError,
  type FinishBody,
  type FinishedItem,
  type LostLease,
  type NodeSettings,
  type WorkerAttempt,
  type WorkerLogLine,
  type WorkerOutcome,
} from './worker-api.js';
export { HANDLER_STOP_WAIT_MS, type WorkerAbortReason } from './worker-attempt.js';
