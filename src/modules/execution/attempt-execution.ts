import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { attemptTrace, CLOCK, type Clock, formatTraceparent, instanceTrace, runLimitOf } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import {
  CORRUPT_ROW,
  corruptionOf,
  type JobInstance,
  JobInstanceStatus as S,
  type StoredCheckpoint,
} from '../metadata/index.js';
import { MetricsService } from '../observability/index.js';
import { rowSpan, Tracing } from '../tracing/index.js';
import {
  AbortReason,
  abortAttempt,
  abortedOutcome,
  abortReasonOf,
  failedOutcome,
  limitReason,
} from './abort-reason.js';
import { AppScopes } from './app-scopes.service.js';
import { CheckpointWriter, decodeCheckpoint } from './attempt-checkpoints.js';
import { HandlerLogWriter } from './handler-log/handler-log-writer.js';
import { HandlerRegistry } from './handler-registry.service.js';
import { type JobContext, type JobHandlerImpl, stdoutLog } from '../handler/index.js';
import type { AttemptOutcome } from './outcome-policy.js';
import { ProgressWriter } from './progress-writer.js';

/** An attempt's outcome, and its handler's run (null: the handler never ran), which may outlive the outcome. */
export interface AttemptRun {
  outcome: AttemptOutcome;
  handler: HandlerRun | null;
}

/** How a handler really ended: when (epoch ms UTC), and whether it returned or threw (the error's message). */
export interface HandlerSettled {
  at: number;
  status: 'SUCCESS' | 'FAILED';
  error: string | null;
}

/** A handler's run: `end` is set the moment it returns or throws; `settled` resolves then. Never rejects. */
export class HandlerRun {
  end: HandlerSettled | null = null;
  settled: Promise<HandlerSettled> = new Promise(() => undefined);

  track(running: Promise<unknown>, clock: Clock): Promise<unknown> {
    const settle = (status: HandlerSettled['status'], error: string | null) =>
      (this.end = { at: clock.now(), status, error });
    this.settled = running.then(
      () => settle('SUCCESS', null),
      (err: Error) => settle('FAILED', String(err?.message ?? err)),
    );
    return running;
  }
}

/** How long an aborted handler is given to settle before its attempt ends here, ms. */
const HANDLER_STOP_WAIT_MS = 1_000;

/**
 * Runs one claimed attempt's handler and says how it ended (docs/execution.md). Its {@link JobContext}'s signal
 * aborts on timeout (its run limit: timeoutMs, or MAX_RUN_TIME_MS under timeoutMode HEARTBEAT), heartbeat timeout,
 * shutdown, or when the caller aborts `controller` ({@link AbortReason}).
 * Progress reports go to the {@link ProgressWriter}. Never throws.
 */
@Injectable()
export class AttemptExecution {
  private readonly logger = new Logger(AttemptExecution.name);

  constructor(
    @Inject(HandlerRegistry) private readonly handlers: Pick<HandlerRegistry, 'get'>,
    @Inject(AppScopes) private readonly scopes: Pick<AppScopes, 'refusal'>,
    @Inject(MetricsService) private readonly metrics: Pick<MetricsService, 'rowsQuarantined'>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CheckpointWriter) private readonly checkpoints: Pick<CheckpointWriter, 'open'>,
    @Inject(ProgressWriter) private readonly progress: Pick<ProgressWriter, 'report' | 'end'>,
    @Inject(APP_CONFIG) private readonly config: { longTasks: Pick<AppConfig['longTasks'], 'maxRunTimeMs'> },
    /** Keeps `ctx.log` lines in job_log; without it they go to stdout only. */
    @Optional() @Inject(HandlerLogWriter) private readonly logs?: Pick<HandlerLogWriter, 'open' | 'ended'>,
    /** Records each attempt's span (docs/observability.md "Tracing"); without it, none. */
    @Optional() @Inject(Tracing) private readonly tracing?: Pick<Tracing, 'record'>,
  ) {}

  /** Runs the attempt ({@link attempt}), then records its span and its end in the log, with its trace id. */
  async run(
    row: JobInstance,
    token: number,
    controller: AbortController,
    shutdown: AbortSignal,
    checkpoint: StoredCheckpoint | null = null,
  ): Promise<AttemptRun> {
    const startMs = this.clock.now();
    this.logger.debug({ traceId: row.traceId, msg: `instance ${row.id} attempt ${row.attempt} started` });
    const ran = await this.attempt(row, token, controller, shutdown, checkpoint);
    const { status } = ran.outcome;
    const error = 'error' in ran.outcome ? ran.outcome.error : null;
    const span = { context: attemptTrace(row, token), parentSpanId: instanceTrace(row).spanId, startMs };
    const attributes = { 'tickwheel.attempt': row.attempt, 'tickwheel.status': status };
    this.tracing?.record(
      rowSpan('tickwheel.attempt', row, { ...span, endMs: this.clock.now() }, { error, attributes }),
    );
    this.logger.debug({ traceId: row.traceId, msg: `instance ${row.id} attempt ${row.attempt} ended ${status}` });
    return ran;
  }

  private async attempt(
    row: JobInstance,
    token: number,
    controller: AbortController,
    shutdown: AbortSignal,
    checkpoint: StoredCheckpoint | null,
  ): Promise<AttemptRun> {
    const handler = await this.runnable(row);
    if (!('execute' in handler)) return { outcome: handler, handler: null };
    // HARD: timeoutMs, heartbeating or not; HEARTBEAT: only MAX_RUN_TIME_MS besides the heartbeat watch.
    const limit = runLimitOf(row, this.config.longTasks.maxRunTimeMs);
    const cancelTimeout = this.clock.schedule(limit.ms, () => abortAttempt(controller, limitReason(limit)));
    const beat = this.heartbeatWatch(row.heartbeatTimeoutMs, controller);
    const onShutdown = () => abortAttempt(controller, AbortReason.SHUTDOWN);
    shutdown.addEventListener('abort', onShutdown, { once: true });
    const key = `${row.id}#${token}`;
    const run = new HandlerRun();
    let open = true; // reports of a handler still running after its attempt ended go nowhere (no window left behind)
    const report = (fraction: number, note?: string) => {
      beat.alive();
      // a note whose toString throws is dropped, never thrown at the handler
      const text = safeNote(note);
      if (open) this.progress.report(key, row.id, token, fraction, text);
    };
    let running: Promise<unknown> | undefined;
    try {
      const ctx = this.context(row, token, controller.signal, checkpoint, beat.alive, report);
      running = run.track(invoke(handler, ctx), this.clock);
      const result = await Promise.race([running, abortPromise(controller.signal)]);
      return { outcome: { status: S.SUCCESS, result }, handler: run };
    } catch (err) {
      // Aborted: give the handler a moment to wind down (an http call's socket closed) before its attempt is
      // recorded. One that ignores its signal is not waited for past the bound; it keeps its worker slot until it
      // returns (run.settled), and how it ended then is kept as a late completion.
      if (controller.signal.aborted && running) await settledWithin(running, HANDLER_STOP_WAIT_MS);
      const reason = abortReasonOf(controller.signal);
      const outcome = reason ? abortedOutcome(reason, limit, err, row.heartbeatTimeoutMs) : failedOutcome(err);
      return { outcome, handler: run };
    } finally {
      open = false;
      cancelTimeout();
      beat.stop();
      shutdown.removeEventListener('abort', onShutdown);
      // its last progress and its lines stored before its end is recorded (then the row is no longer RUNNING)
      await Promise.all([this.progress.end(key), this.logs?.ended(row.id, row.attempt)]);
    }
  }

  /**
   * The heartbeat timeout (docs/long-tasks.md): aborts with HEARTBEAT_TIMEOUT once `ms` pass without `alive()`.
   * `alive()` only notes the time; the one timer re-arms itself for what is left (no timer per report).
   */
  private heartbeatWatch(ms: number, controller: AbortController): { alive: () => void; stop: () => void } {
    if (!(ms > 0)) return { alive: () => undefined, stop: () => undefined };
    let last = this.clock.now();
    let cancel: () => void = () => undefined;
    const check = () => {
      const silent = this.clock.now() - last;
      if (silent >= ms) abortAttempt(controller, AbortReason.HEARTBEAT_TIMEOUT);
      else cancel = this.clock.schedule(ms - silent, check);
    };
    cancel = this.clock.schedule(ms, check);
    return { alive: () => (last = this.clock.now()), stop: () => cancel() };
  }

  /** The handler to run, or why it must not run at all (a FAILED outcome). */
  private async runnable(row: JobInstance): Promise<JobHandlerImpl | AttemptOutcome> {
    const corrupt = corruptionOf(row);
    if (corrupt) {
      // Params that cannot be read (a TEXT cut at 65,535 bytes): the handler and every retry would run on nothing.
      this.metrics.rowsQuarantined.inc({ reason: CORRUPT_ROW });
      this.logger.error({
        traceId: row.traceId,
        msg: `instance ${row.id} failed without running its handler: ${corrupt}`,
      });
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

  /** The handler's context; `alive()` resets the heartbeat timeout (progress, heartbeat, a stored checkpoint). */
  private context(
    row: JobInstance,
    token: number,
    signal: AbortSignal,
    stored: StoredCheckpoint | null,
    alive: () => void,
    progress: JobContext['progress'],
  ): JobContext {
    const logger = new Logger(`job:${row.handler}:${row.traceId}`);
    const checkpoints = this.checkpoints.open({ id: row.id, attempt: row.attempt, fencingToken: token }, alive);
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
      traceparent: formatTraceparent(attemptTrace(row, token)),
      signal,
      logger,
      log: this.logs ? this.logs.open(row, logger) : stdoutLog(logger),
      progress,
      heartbeat: () => alive(),
      checkpoint: (state) => checkpoints.write(state),
      lastCheckpoint: decodeCheckpoint(stored, row.id, logger),
    };
  }
}

/** The handler's promise; a handler that throws at once (not async) gives a rejected one. */
function invoke(handler: JobHandlerImpl, ctx: JobContext): Promise<unknown> {
  try {
    return Promise.resolve(handler.execute(ctx));
  } catch (err) {
    return Promise.reject(err);
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

function safeNote(note: unknown): string | undefined {
  if (note === undefined || note === null) return undefined;
  try {
    return String(note);
  } catch {
    return undefined;
  }
}
