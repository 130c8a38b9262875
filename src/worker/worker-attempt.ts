import type { LoggerService } from '@nestjs/common';
import { type JobContext, JobFailure, type JobHandlerImpl } from '../modules/handler/index.js';
import { type AttemptAddress, CheckpointChain, LogBatcher, ProgressReporter } from './attempt-reports.js';
import { type FinishBody, problemDetail, type WorkerAttempt, type WorkerOutcome } from './worker-api.js';

/** How long an aborted handler is given to settle before its attempt is finished, ms (as an executor). */
export const HANDLER_STOP_WAIT_MS = 1_000;

/**
 * Why an attempt's signal aborted; the handler sees `new Error(<reason>)` as `ctx.signal.reason`, as on an
 * executor. `LEASE_LOST`: the api no longer holds the row for this attempt (taken back, node expired).
 */
export type WorkerAbortReason = 'TIMEOUT' | 'HEARTBEAT_TIMEOUT' | 'SHUTDOWN' | 'REVOKED' | 'LEASE_LOST';

/** What the attempt needs beside its row: the api address, the limits, the worker's log. */
export interface AttemptDeps {
  address: Omit<AttemptAddress, 'instanceId' | 'fencingToken'>;
  checkpointMaxBytes: number;
  progressIntervalMs: number;
  logFlushMs: number;
  loggerFor: (context: string) => LoggerService;
}

/** How an attempt ended here: the finish body to send, or null when nothing is to be sent (the lease was lost). */
export interface AttemptEnd {
  finish: FinishBody | null;
  /** When the handler returned or threw (epoch ms UTC); null when it had not by the time the attempt ended. */
  handlerEndedAt: number | null;
}

/**
 * One claimed attempt on a worker (docs/workers.md "Lifecycle"): builds the handler's {@link JobContext} (progress,
 * log lines and checkpoints go to the api, fenced by the attempt's token), runs the handler, aborts its signal on
 * timeout (`timeoutMs`), heartbeat timeout (`heartbeatTimeoutMs`), {@link abort} (lost lease, cancel, shutdown),
 * and says what to finish with. `run()` never throws.
 */
export class WorkerAttemptRun {
  readonly controller = new AbortController();
  private readonly address: AttemptAddress;
  private lastAlive = Date.now();

  constructor(
    readonly attempt: WorkerAttempt,
    private readonly handler: JobHandlerImpl,
    private readonly deps: AttemptDeps,
  ) {
    this.address = { ...deps.address, instanceId: attempt.instanceId, fencingToken: attempt.fencingToken };
  }

  /** Aborts the handler's signal for `reason` (the first reason wins). */
  abort(reason: WorkerAbortReason): void {
    if (!this.controller.signal.aborted) this.controller.abort(new Error(reason));
  }

  /** The reason the signal aborted with, or null. */
  get abortReason(): WorkerAbortReason | null {
    if (!this.controller.signal.aborted) return null;
    return String((this.controller.signal.reason as Error)?.message) as WorkerAbortReason;
  }

  async run(): Promise<AttemptEnd> {
    const a = this.attempt;
    // aborted before it began (claimed as the drain started): the handler never runs
    if (this.controller.signal.aborted) return { finish: this.failure(null, null), handlerEndedAt: null };
    const stdout = this.deps.loggerFor(`job:${a.handler}:${a.traceId}`);
    const progress = new ProgressReporter(this.address, this.deps.progressIntervalMs);
    const logs = new LogBatcher(this.address, stdout, this.deps.logFlushMs);
    const stopTimers = this.timers();
    let endedAt: number | null = null;
    let running: Promise<unknown> | undefined;
    try {
      const ctx = this.context(stdout, progress, logs);
      running = invoke(this.handler, ctx).finally(() => (endedAt = Date.now()));
      const result = await Promise.race([running, aborted(this.controller.signal)]);
      return { finish: { fencingToken: a.fencingToken, outcome: 'SUCCESS', result }, handlerEndedAt: endedAt };
    } catch (err) {
      if (this.controller.signal.aborted && running) await settledWithin(running, HANDLER_STOP_WAIT_MS);
      return { finish: this.failure(err, endedAt), handlerEndedAt: endedAt };
    } finally {
      stopTimers();
      await Promise.all([progress.end(), logs.end()]);
    }
  }

  /** The finish of a handler that threw `err` or was aborted; null when the lease was lost (nothing to finish). */
  private failure(err: unknown, handlerEndedAt: number | null): FinishBody | null {
    const a = this.attempt;
    const base = { fencingToken: a.fencingToken, ...(handlerEndedAt === null ? {} : { handlerEndedAt }) };
    const reason = this.abortReason;
    const abortedAs: Record<Exclude<WorkerAbortReason, 'LEASE_LOST'>, [WorkerOutcome, string]> = {
      TIMEOUT: ['TIMEOUT', `timed out after ${a.timeoutMs} ms`],
      HEARTBEAT_TIMEOUT: [
        'HEARTBEAT_TIMEOUT',
        `HEARTBEAT_TIMEOUT: no progress, heartbeat or checkpoint for ${a.heartbeatTimeoutMs} ms`,
      ],
      SHUTDOWN: ['SHUTDOWN', 'worker shut down before the handler finished'],
      REVOKED: ['CANCELLED', 'cancelled (or taken away) while running'],
    };
    if (reason === 'LEASE_LOST') return null;
    if (reason) return { ...base, outcome: abortedAs[reason][0], error: abortedAs[reason][1] };
    const e = (err ?? {}) as Error;
    const failure = err instanceof JobFailure ? err : undefined;
    return {
      ...base,
      outcome: 'FAILED',
      error: `${!e.name || e.name === 'Error' ? '' : `${e.name}: `}${String(e.message ?? err)}`,
      ...(failure?.result === undefined ? {} : { result: failure.result }),
      ...(failure?.retryable === false ? { retryable: false } : {}),
    };
  }

  /** The hard timeout and the heartbeat watch; returns what stops them. */
  private timers(): () => void {
    const { timeoutMs, heartbeatTimeoutMs } = this.attempt;
    const hard = timeoutMs > 0 ? setTimeout(() => this.abort('TIMEOUT'), timeoutMs) : undefined;
    let beat: NodeJS.Timeout | undefined;
    if (heartbeatTimeoutMs > 0) {
      const check = () => {
        const silent = Date.now() - this.lastAlive;
        if (silent >= heartbeatTimeoutMs) this.abort('HEARTBEAT_TIMEOUT');
        else beat = setTimeout(check, heartbeatTimeoutMs - silent);
      };
      beat = setTimeout(check, heartbeatTimeoutMs);
    }
    return () => {
      clearTimeout(hard);
      clearTimeout(beat);
    };
  }

  private context(stdout: LoggerService, progress: ProgressReporter, logs: LogBatcher): JobContext {
    const a = this.attempt;
    const alive = () => (this.lastAlive = Date.now());
    const checkpoints = new CheckpointChain(this.address, this.deps.checkpointMaxBytes, alive);
    return {
      requestId: a.requestId,
      instanceId: a.instanceId,
      appId: a.appId,
      jobCode: a.jobCode,
      params: a.params,
      attempt: a.attempt,
      maxAttempts: a.maxAttempts,
      fencingToken: a.fencingToken,
      shardIndex: a.shardIndex,
      shardTotal: a.shardTotal,
      fireTime: a.fireTime,
      traceId: a.traceId,
      // empty from an api older than the field
      traceparent: a.traceparent ?? '',
      signal: this.controller.signal,
      logger: stdout,
      log: logs.log(),
      progress: (fraction, note) => {
        alive();
        progress.report(fraction, note);
      },
      heartbeat: () => void alive(),
      checkpoint: (state) => checkpoints.write(state),
      lastCheckpoint: a.lastCheckpoint ?? null,
    };
  }
}

/** How a finish answer reads in the worker's log; null when it is the expected 200. */
export function finishTrouble(instanceId: string, status: number, body: unknown): string | null {
  if (status === 200 || status === 204) return null;
  if (status === 409 || status === 404) {
    const why = `${status} ${problemDetail(body)}`;
    return `attempt ${instanceId} lost: its finish was refused (${why}); another attempt or the take-back owns it`;
  }
  return `finish of ${instanceId} failed: ${status} ${problemDetail(body)}`;
}

/** The handler's promise; a handler that throws at once (not async) gives a rejected one. */
function invoke(handler: JobHandlerImpl, ctx: JobContext): Promise<unknown> {
  try {
    return Promise.resolve(handler.execute(ctx));
  } catch (err) {
    return Promise.reject(err as Error);
  }
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason as Error);
    signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
  });
}

/** Waits until `p` settles, or `ms` at most. Never throws. */
async function settledWithin(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([p.then(noop, noop), new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}

const noop = () => undefined;
