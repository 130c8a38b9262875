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
  traceId: string;
  signal: AbortSignal;
  /** Its lines carry the trace id. */
  logger: LoggerService;
  /** Logs progress (0-100) with an optional note. */
  progress(pct: number, note?: string): void;
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
