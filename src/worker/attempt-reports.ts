import type { LoggerService } from '@nestjs/common';
import {
  CheckpointRejected,
  cutLine,
  encodeCheckpoint,
  type HandlerLog,
  printableArgs,
} from '../modules/handler/index.js';
import { problemDetail, type RetryPlan, WorkerApi, type WorkerLogLine } from './worker-api.js';

/** Longest progress note the api takes, characters. */
const NOTE_MAX = 256;
/** Longest log message the api takes, characters (the cut marker included). */
const MESSAGE_MAX = 4096;
/** Lines per logs call (the route's bound). */
const LINES_PER_CALL = 100;
/** Lines kept waiting per attempt at most; beyond, the oldest waiting ones are dropped (and counted). */
const LINES_WAITING_MAX = 1000;

/** Which attempt a report belongs to, and where it goes. */
export interface AttemptAddress {
  api: WorkerApi;
  nodeId: string;
  instanceId: string;
  fencingToken: number;
  logger: LoggerService;
}

/** Retry plan of the writes a handler waits for (checkpoints) and of the last flushes: a few seconds. */
export const WRITE_RETRY: RetryPlan = { tries: 5, baseDelayMs: 200, maxDelayMs: 2_000 };

/**
 * `ctx.progress` of one attempt (docs/long-tasks.md "Progress"): the first report of a window is sent at once,
 * later ones replace a waiting one, sent at the window's end (`intervalMs`); `end()` sends a waiting one. A failed
 * send is logged at debug level, never thrown at the handler (progress is advisory).
 */
export class ProgressReporter {
  private until = 0;
  private pending: { fraction: number; note?: string } | null = null;
  private timer: NodeJS.Timeout | null = null;
  private sending: Promise<void> = Promise.resolve();

  constructor(
    private readonly to: AttemptAddress,
    private readonly intervalMs: number,
  ) {}

  report(fraction: number, note?: string): void {
    if (typeof fraction !== 'number' || !Number.isFinite(fraction)) return;
    const r = { fraction: Math.min(1, Math.max(0, fraction)), note: cutNote(note) };
    const now = Date.now();
    if (now >= this.until && !this.timer) {
      this.until = now + this.intervalMs;
      this.send(r);
      return;
    }
    this.pending = r;
    this.timer ??= setTimeout(() => this.windowEnded(), Math.max(0, this.until - now));
  }

  /** Sends a waiting report now and waits for the sends. Never throws. */
  async end(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending) this.send(this.pending);
    this.pending = null;
    await this.sending;
  }

  private windowEnded(): void {
    this.timer = null;
    if (!this.pending) return;
    const r = this.pending;
    this.pending = null;
    this.until = Date.now() + this.intervalMs;
    this.send(r);
  }

  private send(r: { fraction: number; note?: string }): void {
    const { api, nodeId, instanceId, fencingToken, logger } = this.to;
    const body = { fencingToken, fraction: r.fraction, ...(r.note === undefined ? {} : { note: r.note }) };
    this.sending = this.sending
      .then(() => api.progress(nodeId, instanceId, body))
      .then(
        (a) => {
          if (a.status >= 300)
            logger.debug?.(`progress of ${instanceId} not kept: ${a.status} ${problemDetail(a.body)}`);
        },
        (err: Error) => logger.debug?.(`progress of ${instanceId} not sent: ${err.message}`),
      );
  }
}

/**
 * `ctx.log` of one attempt (docs/long-tasks.md "Handler logs"): each line is printed through `stdout` (the attempt's
 * Nest logger) and kept for the logs route, sent in batches of at most 100 every `flushMs` and at `end()`. Lines are
 * formatted like console.log and cut to 4096 characters; sending never throws at the handler.
 */
export class LogBatcher {
  private waiting: WorkerLogLine[] = [];
  private dropped = 0;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly to: AttemptAddress,
    private readonly stdout: LoggerService,
    private readonly flushMs: number,
  ) {}

  /** The handler-facing log. */
  log(): HandlerLog {
    const line = (level: WorkerLogLine['level'], args: unknown[]) => this.add(level, printableArgs(args));
    return {
      info: (...a) => line('info', a),
      warn: (...a) => line('warn', a),
      error: (...a) => line('error', a),
    };
  }

  private add(level: WorkerLogLine['level'], text: string): void {
    const message = cutLine(text, MESSAGE_MAX);
    if (level === 'info') this.stdout.log(message);
    else this.stdout[level](message);
    this.waiting.push({ level, message, at: Date.now() });
    if (this.waiting.length > LINES_WAITING_MAX) {
      this.waiting.shift();
      this.dropped++;
    }
    if (this.waiting.length >= LINES_PER_CALL) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.flushMs);
  }

  /** Sends what waits and waits for every send. Never throws. */
  async end(): Promise<void> {
    this.flush();
    await this.flushing;
    if (this.dropped > 0) this.to.logger.warn(`${this.to.instanceId}: ${this.dropped} log line(s) dropped (api slow)`);
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.waiting.length > 0) {
      const lines = this.waiting.splice(0, LINES_PER_CALL);
      const { api, nodeId, instanceId, fencingToken, logger } = this.to;
      this.flushing = this.flushing
        .then(() => api.logs(nodeId, instanceId, { fencingToken, lines }, WRITE_RETRY))
        .then(
          (a) => {
            if (a.status >= 300)
              logger.warn(`log lines of ${instanceId} not kept: ${a.status} ${problemDetail(a.body)}`);
          },
          (err: Error) => logger.warn(`log lines of ${instanceId} not sent: ${err.message}`),
        );
    }
  }
}

/**
 * `ctx.checkpoint` of one attempt (docs/long-tasks.md "Checkpoints"): one write at a time in call order, the state
 * encoded at the call. Resolves once the api stored it (then `onAlive`). @throws RangeError (not JSON, over
 * `maxBytes`, or the api refused it as too large), {@link CheckpointRejected} (409: a newer token holds the
 * instance; 404: the attempt is no longer this node's), a network error once the retries are spent.
 */
export class CheckpointChain {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly to: AttemptAddress,
    private readonly maxBytes: number,
    private readonly onAlive: () => void,
  ) {}

  write(state: unknown): Promise<void> {
    let json: string;
    try {
      json = encodeCheckpoint(state, this.maxBytes);
    } catch (err) {
      return Promise.reject(err as Error);
    }
    const run = this.tail.then(() => this.send(JSON.parse(json) as unknown));
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async send(state: unknown): Promise<void> {
    const { api, nodeId, instanceId, fencingToken } = this.to;
    const a = await api.checkpoint(nodeId, instanceId, { fencingToken, state }, WRITE_RETRY);
    if (a.status === 204 || a.status === 200) return this.onAlive();
    if (a.status === 409 || a.status === 404) throw new CheckpointRejected(instanceId, fencingToken);
    const detail = problemDetail(a.body);
    if (a.status === 400 || a.status === 413) throw new RangeError(`checkpoint refused by the api: ${detail}`);
    throw new Error(`checkpoint of ${instanceId} failed: ${a.status} ${detail}`);
  }
}

function cutNote(note: unknown): string | undefined {
  if (note === undefined || note === null) return undefined;
  try {
    const s = String(note);
    return s.length > NOTE_MAX ? s.slice(0, NOTE_MAX) : s;
  } catch {
    return undefined;
  }
}
