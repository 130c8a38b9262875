// The handler contract (docs/execution.md "Handlers"): what a handler implements and receives, the same for a
// trusted executor (`tickwheel/executor`) and an app worker (`tickwheel/worker`). It imports nothing of the
// product's stores, so the worker entry loads no database driver.
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
