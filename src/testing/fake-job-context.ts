import type { LoggerService } from '@nestjs/common';
import {
  type Checkpoint,
  CheckpointRejected,
  encodeCheckpoint,
  formatLogArgs,
  type HandlerLog,
  type JobContext,
} from '../modules/handler/index.js';

/** What a {@link FakeJobContext} is made with; every field has a default. */
export interface FakeJobContextOptions {
  params?: unknown;
  /** What an earlier attempt stored (`ctx.lastCheckpoint`); default null, a first start. */
  lastCheckpoint?: Checkpoint | null;
  /** Default 1. */
  attempt?: number;
  /** Default 1. */
  maxAttempts?: number;
  /** Default `attempt`. */
  fencingToken?: number;
  /** Default `req-1`. */
  requestId?: string;
  /** Default `instance-1`. */
  instanceId?: string;
  /** Default `app-1`. */
  appId?: string;
  /** Default null (an API task). */
  jobCode?: string | null;
  shardIndex?: number;
  shardTotal?: number;
  /** Epoch ms; default `now()` at construction. */
  fireTime?: number;
  traceId?: string;
  /** Default the W3C example `00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01`. */
  traceparent?: string;
  /** Largest checkpoint, bytes of UTF-8 JSON; default 65,536 (the product's CHECKPOINT_MAX_BYTES default). */
  checkpointMaxBytes?: number;
  /** The clock of checkpoints' `at`, epoch ms; default Date.now. */
  now?: () => number;
}

/** One line a handler logged: through `ctx.log` (info, warn, error) or `ctx.logger` (the Nest method's name). */
export interface LoggedLine {
  level: 'info' | 'warn' | 'error' | 'log' | 'debug' | 'verbose' | 'fatal';
  message: string;
}

/** One `ctx.progress` call: the fraction as clamped to 0..1, and the note. */
export interface ProgressReport {
  fraction: number;
  note?: string;
}

/**
 * A {@link JobContext} for a handler's own unit tests, with no product behind it: it records the checkpoints (each
 * stored as a copy of its JSON, so later changes to the object do not leak in), progress reports, heartbeats and
 * log lines, and lets the test abort the signal ({@link abort}) or make the next checkpoints fail with
 * `CheckpointRejected` as when a newer attempt owns the instance ({@link rejectCheckpoints}). `lastCheckpoint` stays
 * what the attempt started with, as in the product: a handler's own checkpoints are for the next attempt.
 */
export class FakeJobContext implements JobContext {
  readonly requestId: string;
  readonly instanceId: string;
  readonly appId: string;
  readonly jobCode: string | null;
  readonly params: unknown;
  readonly attempt: number;
  readonly maxAttempts: number;
  readonly fencingToken: number;
  readonly shardIndex: number;
  readonly shardTotal: number;
  readonly fireTime: number;
  readonly traceId: string;
  readonly traceparent: string;
  readonly lastCheckpoint: Checkpoint | null;
  /** Every checkpoint this attempt stored, in order (the last one is what a next attempt gets). */
  readonly checkpoints: Checkpoint[] = [];
  /** The states of checkpoints refused with CheckpointRejected (not stored). */
  readonly rejectedCheckpoints: unknown[] = [];
  readonly progressReports: ProgressReport[] = [];
  /** Calls of `ctx.heartbeat()` (a checkpoint or progress report also counts as one in the product, not here). */
  heartbeats = 0;
  readonly logs: LoggedLine[] = [];
  readonly log: HandlerLog;
  readonly logger: LoggerService;
  private readonly controller = new AbortController();
  private readonly maxBytes: number;
  private readonly now: () => number;
  private rejectAfter = Number.POSITIVE_INFINITY;
  private readonly onStored: Array<(c: Checkpoint) => void> = [];

  constructor(opts: FakeJobContextOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.params = opts.params ?? {};
    this.lastCheckpoint = opts.lastCheckpoint ?? null;
    this.attempt = opts.attempt ?? 1;
    this.maxAttempts = opts.maxAttempts ?? Math.max(1, this.attempt);
    this.fencingToken = opts.fencingToken ?? this.attempt;
    this.requestId = opts.requestId ?? 'req-1';
    this.instanceId = opts.instanceId ?? 'instance-1';
    this.appId = opts.appId ?? 'app-1';
    this.jobCode = opts.jobCode ?? null;
    this.shardIndex = opts.shardIndex ?? 0;
    this.shardTotal = opts.shardTotal ?? 1;
    this.fireTime = opts.fireTime ?? this.now();
    this.traceId = opts.traceId ?? `trace-${this.requestId}`;
    this.traceparent = opts.traceparent ?? '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    this.maxBytes = opts.checkpointMaxBytes ?? 65_536;
    const line =
      (level: LoggedLine['level']) =>
      (...args: unknown[]) => {
        this.logs.push({ level, message: formatLogArgs(args) });
      };
    this.log = { info: line('info'), warn: line('warn'), error: line('error') };
    this.logger = {
      log: line('log'),
      warn: line('warn'),
      error: line('error'),
      debug: line('debug'),
      verbose: line('verbose'),
      fatal: line('fatal'),
    };
  }

  /** The attempt's signal: aborted by {@link abort} (in the product: timeout, lost lease, shutdown, cancel). */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Aborts the signal with `reason` (default an Error "aborted"), as a timeout, lease loss or shutdown would. */
  abort(reason: unknown = new Error('aborted')): void {
    this.controller.abort(reason);
  }

  /** Makes every checkpoint after the first `after` stored ones (default 0: from now on) throw CheckpointRejected. */
  rejectCheckpoints(after = 0): void {
    this.rejectAfter = this.checkpoints.length + after;
  }

  /** Runs `fn` after each stored checkpoint (the harness stops a run there). */
  onCheckpoint(fn: (c: Checkpoint) => void): void {
    this.onStored.push(fn);
  }

  /** The messages logged at `level` (any level when omitted). */
  lines(level?: LoggedLine['level']): string[] {
    return this.logs.filter((l) => level === undefined || l.level === level).map((l) => l.message);
  }

  progress(fraction: number, note?: string): void {
    const f = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 0;
    this.progressReports.push(note === undefined ? { fraction: f } : { fraction: f, note: note.slice(0, 256) });
  }

  heartbeat(): void {
    this.heartbeats++;
  }

  /**
   * Stores a copy of `state` as the product does (JSON, at most `checkpointMaxBytes`).
   * @throws RangeError when `state` is not JSON or too large; CheckpointRejected once {@link rejectCheckpoints} says.
   */
  async checkpoint(state: unknown): Promise<void> {
    const json = encodeCheckpoint(state, this.maxBytes); // refused as the product refuses it
    await Promise.resolve(); // durable "later", as in the product: the handler awaits it
    if (this.checkpoints.length >= this.rejectAfter) {
      this.rejectedCheckpoints.push(JSON.parse(json));
      throw new CheckpointRejected(this.instanceId, this.fencingToken);
    }
    const stored: Checkpoint = {
      state: JSON.parse(json) as unknown,
      attempt: this.attempt,
      fencingToken: this.fencingToken,
      at: this.now(),
    };
    this.checkpoints.push(stored);
    for (const fn of this.onStored) fn(stored);
  }
}
