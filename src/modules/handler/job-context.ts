import { LoggerService } from '@nestjs/common';

/**
 * What a handler receives for one attempt (docs/execution.md). `signal` aborts on timeout, lost lease and
 * shutdown; `fencingToken` grows with every attempt, so a handler can make its own writes conditional
 * on it; `requestId` is the stable idempotency key across attempts.
 */
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
  /** The instance's W3C trace id (32 hex): in every log line about it (docs/observability.md "Tracing"). */
  traceId: string;
  /**
   * This attempt's W3C `traceparent` (`00-<traceId>-<this attempt's span id>-<flags>`): send it on the calls the
   * handler makes so they join the run's trace (the built-in `http` handler does).
   */
  traceparent: string;
  signal: AbortSignal;
  /** Nest logger for this attempt: stdout only, lines carry the trace id. Prefer {@link log}. */
  logger: LoggerService;
  /**
   * The attempt's own log (docs/long-tasks.md "Handler logs"): each line goes to stdout with the trace id and is
   * kept with the instance (bounded per attempt), read through `GET /api/tasks/{requestId}/logs`.
   */
  log: HandlerLog;
  /**
   * Reports how far the work is: `fraction` 0..1 (clamped), an optional note (at most 256 characters). Stored at
   * most once per PROGRESS_WRITE_INTERVAL_MS per instance (later reports coalesce); also a heartbeat.
   */
  progress(fraction: number, note?: string): void;
  /** Says "alive, not stuck" without progress: resets the heartbeat timeout (docs/long-tasks.md). */
  heartbeat(): void;
  /**
   * Stores `state` (JSON, at most CHECKPOINT_MAX_BYTES) as this instance's (this shard's) checkpoint, conditional
   * on this attempt's fencing token. Resolves once durable. Throws {@link CheckpointRejected} when a newer
   * attempt owns the instance (stop: your work is no longer yours) and RangeError when `state` is too large or
   * not JSON. Also a heartbeat.
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

/** A handler's log for one attempt: arguments are joined like console.log (objects as JSON). */
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

/**
 * Thrown by a handler to fail the attempt while keeping a result (the status and body of a 500 answer). It is
 * retried while attempts remain, unless `retryable` is false (another attempt would only repeat it).
 */
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
