// The handler contract (docs/execution.md "Handlers"), the same on an executor and an app worker; imports no store.
export { JobHandler } from './job-handler.decorator.js';
export {
  CheckpointRejected,
  JobFailure,
  type Checkpoint,
  type HandlerLog,
  type JobContext,
  type JobHandlerImpl,
  type JobResult,
} from './job-context.js';
export { encodeCheckpoint } from './checkpoint-json.js';
export { cutLine, formatLogArgs, LOG_LINE_MAX_CHARS, printableArgs, stdoutLog } from './log-line.js';
export type { FinishBody, FinishedItem, LostLease, NodeSettings, WorkerAttempt, WorkerOutcome } from './worker-wire.js';
