import { Logger } from '@nestjs/common';
import type { Clock } from '../../common/index.js';
import {
  CORRUPT_ROW,
  corruptionOf,
  type JobInstance,
  JobInstanceStatus as S,
  type StoredCheckpoint,
} from '../metadata/index.js';
import type { MetricsService } from '../observability/index.js';
import { AbortReason, abortAttempt, abortedOutcome, abortReasonOf, failedOutcome } from './abort-reason.js';
import type { AppScopes } from './app-scopes.service.js';
import { AttemptCheckpoints, type CheckpointStore, decodeCheckpoint } from './attempt-checkpoints.js';
import { stdoutLog } from './handler-log/log-line.js';
import type { HandlerLogWriter } from './handler-log/handler-log-writer.js';
import type { HandlerRegistry } from './handler-registry.service.js';
import type { JobContext, JobHandlerImpl } from './job-context.js';
import type { AttemptOutcome } from './outcome-policy.js';

/** How long an aborted handler is given to settle before its attempt ends here, ms. */
const HANDLER_STOP_WAIT_MS = 1_000;

/**
 * Runs one claimed attempt's handler and says how it ended (docs/execution.md). Its {@link JobContext}'s signal
 * aborts on timeout, shutdown, or when the caller aborts `controller` ({@link AbortReason}). Never throws.
 */
export class AttemptExecution {
  constructor(
    private readonly handlers: HandlerRegistry,
    private readonly scopes: AppScopes,
    private readonly metrics: MetricsService,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** Where `ctx.checkpoint` writes, the largest checkpoint (bytes) and the lease a write renews (ms). */
    private readonly checkpoints: { store: CheckpointStore; maxBytes: number; leaseMs: number },
    /** Keeps `ctx.log` lines in job_log; without it they go to stdout only. */
    private readonly logs?: HandlerLogWriter,
  ) {}

  async run(
    row: JobInstance,
    token: number,
    controller: AbortController,
    shutdown: AbortSignal,
    checkpoint: StoredCheckpoint | null = null,
  ): Promise<AttemptOutcome> {
    const handler = await this.runnable(row);
    if (!('execute' in handler)) return handler;
    const cancelTimeout = this.clock.schedule(row.timeoutMs, () => abortAttempt(controller, AbortReason.TIMEOUT));
    const onShutdown = () => abortAttempt(controller, AbortReason.SHUTDOWN);
    shutdown.addEventListener('abort', onShutdown, { once: true });
    let running: Promise<unknown> | undefined;
    try {
      // Called after each sign of life of the handler (a durable checkpoint): the heartbeat timeout's hook.
      const onAlive = () => undefined;
      running = handler.execute(this.context(row, token, controller.signal, checkpoint, onAlive));
      const result = await Promise.race([running, abortPromise(controller.signal)]);
      return { status: S.SUCCESS, result };
    } catch (err) {
      // Aborted: give the handler a moment to wind down (an http call's socket closed) before its slots go to
      // the next instance. One that ignores its signal is not waited for past the bound.
      if (controller.signal.aborted && running) await settledWithin(running, HANDLER_STOP_WAIT_MS);
      const reason = abortReasonOf(controller.signal);
      return reason ? abortedOutcome(reason, row.timeoutMs, err) : failedOutcome(err);
    } finally {
      cancelTimeout();
      shutdown.removeEventListener('abort', onShutdown);
      await this.logs?.ended(row.id, row.attempt); // its lines readable before its end is recorded
    }
  }

  /** The handler to run, or why it must not run at all (a FAILED outcome). */
  private async runnable(row: JobInstance): Promise<JobHandlerImpl | AttemptOutcome> {
    const corrupt = corruptionOf(row);
    if (corrupt) {
      // Params that cannot be read (a TEXT cut at 65,535 bytes): the handler and every retry would run on nothing.
      this.metrics.rowsQuarantined.inc({ reason: CORRUPT_ROW });
      this.logger.error(`instance ${row.id} failed without running its handler: ${corrupt}`);
      return { status: S.FAILED, error: corrupt, final: true };
    }
    const handler = this.handlers.get(row.handler);
    if (!handler) return { status: S.FAILED, error: `no handler '${row.handler}' on this node` };
    // A privileged handler (shell) runs only while its app holds the scope: a revoked one fails, not retried.
    const refused = await this.scopes
      .refusal(row)
      .catch((err: Error) => `could not read the app's scopes (${err.message}); not run`);
    if (!refused) return handler;
    return { status: S.FAILED, error: refused, final: refused.startsWith('SCOPE_REVOKED') ? true : undefined };
  }

  private context(
    row: JobInstance,
    token: number,
    signal: AbortSignal,
    stored: StoredCheckpoint | null,
    onAlive: () => void,
  ): JobContext {
    const logger = new Logger(`job:${row.handler}:${row.traceId}`);
    const { store, maxBytes, leaseMs } = this.checkpoints;
    const attempt = { id: row.id, attempt: row.attempt, fencingToken: token };
    const checkpoints = new AttemptCheckpoints(store, attempt, { maxBytes, leaseMs }, this.clock, onAlive);
    return {
      requestId: row.requestId,
      instanceId: row.id,
      appId: row.appId,
      jobCode: row.jobCode,
      params: row.params,
      attempt: row.attempt,
      maxAttempts: row.maxAttempts,
      fencingToken: token,
      shardIndex: row.shardIndex,
      shardTotal: row.shardTotal,
      fireTime: row.fireTime,
      traceId: row.traceId,
      signal,
      logger,
      // Interim until docs/long-tasks.md is built: each piece below is replaced by its owner.
      log: this.logs ? this.logs.open(row, logger) : stdoutLog(logger),
      progress: (f, note) =>
        logger.log(`progress ${Math.round(Math.max(0, Math.min(1, f)) * 100)}%${note ? ` ${note}` : ''}`),
      heartbeat: () => undefined,
      checkpoint: (state) => checkpoints.write(state),
      lastCheckpoint: decodeCheckpoint(stored, row.id, logger),
    };
  }
}

/** Waits until `p` settles, or `ms` at most. Never throws. */
async function settledWithin(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    p.then(
      () => undefined,
      () => undefined,
    ),
    new Promise<void>((r) => (timer = setTimeout(r, ms))),
  ]);
  clearTimeout(timer);
}

function abortPromise(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
