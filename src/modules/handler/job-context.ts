import { LoggerService } from '@nestjs/common';

/** What a handler gets for one attempt (docs/execution.md); `requestId` is the idempotency key across attempts. */
export interface JobContext {
  requestId: string;
  instanceId: string;
  /** The app (API client) the instance belongs to: outbound calls made for it follow its egress allow-list. */
  appId: string;
  /** Job definition code, or null for an API task. */
  jobCode: string | null;
  params: unknown;
  attempt: number;
  maxAttempts: number;
  fencingToken: number;
  shardIndex: number;
  shardTotal: number;
  /** Scheduled fire time, epoch ms UTC (submission time for API tasks). */
  fireTime: number;
  traceId: string;
  /** Aborts on timeout, heartbeat timeout, lost lease, cancel and shutdown; its reason is `new Error(<why>)`. */
  signal: AbortSignal;
  /** Nest logger for this attempt: stdout only, lines carry the trace id. Prefer {@link log}. */
  logger: LoggerService;
  /** The attempt's log (args joined like console.log): stdout and kept, `GET /api/tasks/{requestId}/logs`. */
  log: HandlerLog;
  /** `fraction` 0..1, note ≤ 256 chars; stored at most once per PROGRESS_WRITE_INTERVAL_MS; also a heartbeat. */
  progress(fraction: number, note?: string): void;
  /** Says "alive, not stuck" without progress: resets the heartbeat timeout (docs/long-tasks.md). */
  heartbeat(): void;
  /**
   * Stores `state` (JSON ≤ CHECKPOINT_MAX_BYTES), fenced by this attempt's token; resolves once durable; a heartbeat.
   * Throws {@link CheckpointRejected} when a newer attempt owns the instance, RangeError when too large or not JSON.
   */
  checkpoint(state: unknown): Promise<void>;
  /** What an earlier attempt of this instance last stored with {@link checkpoint}; null on a first start. */
  lastCheckpoint: Checkpoint | null;
}

/** A stored checkpoint: the state, the attempt and fencing token that wrote it, when (epoch ms UTC). */
export interface Checkpoint {
  state: unknown;
  attempt: number;
  fencingToken: number;
  at: number;
}

export interface HandlerLog {
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

/** Thrown by `ctx.checkpoint` when the instance no longer belongs to this attempt (a newer token holds it). */
export class CheckpointRejected extends Error {
  constructor(instanceId: string, token: number) {
    super(`checkpoint of instance ${instanceId} refused: fencing token ${token} is no longer current`);
    this.name = 'CheckpointRejected';
  }
}

/** Whatever JSON-serialisable value the handler returns is stored as the instance's result. */
export type JobResult = unknown;

/** A user handler: a Nest provider marked with `@JobHandler('name')` (docs/execution.md). */
export interface JobHandlerImpl {
  execute(ctx: JobContext): Promise<JobResult>;
}

/** Fails the attempt keeping `result`; retried while attempts remain unless `retryable` is false. */
export class JobFailure extends Error {
  readonly retryable: boolean;

  constructor(
    message: string,
    readonly result?: unknown,
    opts: { retryable?: boolean } = {},
  ) {
    super(message);
    this.name = 'JobFailure';
    this.retryable = opts.retryable ?? true;
  }
}
