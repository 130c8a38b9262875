import { BeforeApplicationShutdown, Inject, Injectable, Logger, LoggerService, OnModuleInit } from '@nestjs/common';
import { CLOCK, type Clock, GroupCommitter, repeatEvery } from '../../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import {
  type HandlerLogLevel,
  type JobInstance,
  JobLogRepository,
  type NewLogLine,
  type Tx,
  UnitOfWork,
} from '../../metadata/index.js';
import { MetricsService } from '../../observability/index.js';
import { cutLine, type HandlerLog, LOG_LINE_MAX_CHARS, printableArgs } from '../../handler/index.js';
import { AttemptLog, type LogBatch } from './attempt-log.js';

/** How often buffered lines are written, ms: a running attempt's lines show up about this late. */
export const LOG_FLUSH_MS = 500;
/** Attempts one flush (one transaction) carries at most. */
const FLUSH_ATTEMPTS = 1000;
/** Room kept for the cut marker when a line is cut to fit HANDLER_LOG_MAX_BYTES. */
const CUT_MARKER_BYTES = 64;

/**
 * Handler logs (docs/long-tasks.md "Handler logs"): `ctx.log` of each attempt writes every line to stdout through
 * the attempt's Nest logger and keeps it, bounded ({@link AttemptLog}), in job_log. Buffered lines of every
 * attempt are written together every {@link LOG_FLUSH_MS} and at an attempt's end, in one transaction per group
 * (GroupCommitter). A failed flush loses its lines (counted, warned) and never fails an attempt.
 */
@Injectable()
export class HandlerLogWriter implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(HandlerLogWriter.name);
  /** Open attempts by `<instance id>#<attempt>`, until their end. */
  private readonly attempts = new Map<string, AttemptLog>();
  /** Attempts an app worker logs for (docs/workers.md), with their last line's time: closed when idle a lease long. */
  private readonly remote = new Map<string, number>();
  /** Attempts with lines or drops not yet written (an ended one stays here until written). */
  private readonly dirty = new Set<AttemptLog>();
  private readonly committer: GroupCommitter<AttemptLog, void>;
  private stopTimer: (() => void) | null = null;

  constructor(
    private readonly lines: JobLogRepository,
    private readonly uow: UnitOfWork,
    private readonly metrics: MetricsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.committer = new GroupCommitter((logs) => this.flushGroup(logs), FLUSH_ATTEMPTS);
  }

  onModuleInit(): void {
    if (this.config.longTasks.logMaxLines > 0)
      this.stopTimer = repeatEvery(this.clock, LOG_FLUSH_MS, () => {
        this.closeIdleRemote();
        void this.flushDirty();
      });
  }

  /** Stops the timer and writes what is buffered; attempts still ending write theirs at {@link ended}. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopTimer?.();
    this.stopTimer = null;
    await this.flushDirty();
  }

  /**
   * The `ctx.log` of `row`'s current attempt on this node: each line to `logger` (stdout, with the trace id) and,
   * unless HANDLER_LOG_MAX_LINES is 0, kept. Lines logged after the attempt ended are still kept.
   */
  open(row: JobInstance, logger: LoggerService): HandlerLog {
    const { logMaxLines, logMaxBytes } = this.config.longTasks;
    const maxChars = Math.min(LOG_LINE_MAX_CHARS, Math.floor((logMaxBytes - CUT_MARKER_BYTES) / 3));
    let kept: AttemptLog | null = null;
    if (logMaxLines > 0) {
      const owner = { namespace: row.namespace, instanceId: row.id, attempt: row.attempt, nodeId: row.nodeId ?? '' };
      kept = new AttemptLog(owner, logMaxLines, logMaxBytes);
      this.attempts.set(key(row.id, row.attempt), kept);
    }
    const write = (level: HandlerLogLevel, args: unknown[]): void => {
      const line = cutLine(printableArgs(args), maxChars);
      if (level === 'info') logger.log(line);
      else logger[level](line);
      if (!kept) return;
      kept.add({ at: this.clock.now(), level, line });
      this.dirty.add(kept);
    };
    return {
      info: (...args) => write('info', args),
      warn: (...args) => write('warn', args),
      error: (...args) => write('error', args),
    };
  }

  /**
   * Lines an app worker sent for `row`'s current attempt (docs/workers.md): kept with the same bounds as `ctx.log`'s
   * (one {@link AttemptLog} per attempt across calls, until {@link ended} or a lease without lines), each cut as
   * theirs; not printed (they are the worker's output, not this process's). `at` is the caller's, already checked.
   */
  keep(row: JobInstance, lines: Array<{ level: HandlerLogLevel; message: string; at: number }>): void {
    const { logMaxLines, logMaxBytes } = this.config.longTasks;
    if (logMaxLines <= 0 || lines.length === 0) return;
    const k = key(row.id, row.attempt);
    let kept = this.attempts.get(k);
    if (!kept) {
      const owner = { namespace: row.namespace, instanceId: row.id, attempt: row.attempt, nodeId: row.nodeId ?? '' };
      kept = new AttemptLog(owner, logMaxLines, logMaxBytes);
      this.attempts.set(k, kept);
    }
    this.remote.set(k, this.clock.now());
    const maxChars = Math.min(LOG_LINE_MAX_CHARS, Math.floor((logMaxBytes - CUT_MARKER_BYTES) / 3));
    for (const l of lines) kept.add({ at: l.at, level: l.level, line: cutLine(l.message, maxChars) });
    this.dirty.add(kept);
  }

  /** Forgets the logs of remote attempts silent for a lease (their worker died; what they buffered is written). */
  private closeIdleRemote(): void {
    const before = this.clock.now() - this.config.leaseMs;
    for (const [k, at] of this.remote) {
      if (at >= before) continue;
      this.remote.delete(k);
      this.attempts.delete(k);
    }
  }

  /** The attempt `attempt` of instance `instanceId` ended: writes its lines now. Never throws. */
  async ended(instanceId: string, attempt: number): Promise<void> {
    const log = this.attempts.get(key(instanceId, attempt));
    this.attempts.delete(key(instanceId, attempt));
    this.remote.delete(key(instanceId, attempt));
    if (log?.dirty) await this.committer.submit(log).catch(() => undefined);
  }

  /** Submits every attempt with something to write; resolves once written (or failed). Never throws. */
  private async flushDirty(): Promise<void> {
    const logs = [...this.dirty];
    await Promise.all(logs.map((l) => this.committer.submit(l).catch(() => undefined)));
  }

  /** One flush: every attempt's drops, marker and new lines in one transaction. A failure loses the lines. */
  private async flushGroup(logs: AttemptLog[]): Promise<void[]> {
    const batches = new Map<AttemptLog, LogBatch>();
    for (const log of new Set(logs)) {
      this.dirty.delete(log);
      const batch = log.take();
      if (batch) batches.set(log, batch);
      if (batch?.marker) this.metrics.handlerLogLinesDropped.inc({ reason: 'limit' }, log.takeNewDrops());
    }
    if (batches.size === 0) return logs.map(() => undefined);
    try {
      const markers = await this.uow.run((em) => this.write(em, batches));
      for (const [log, batch] of batches) log.flushed(batch, markers.get(log) ?? null);
    } catch (err) {
      let lost = 0;
      for (const log of batches.keys()) lost += log.failed();
      this.metrics.handlerLogLinesDropped.inc({ reason: 'flush_failed' }, lost);
      this.logger.warn(`handler log flush of ${batches.size} attempt(s) failed, ${lost} line(s) lost: ${msg(err)}`);
    }
    return logs.map(() => undefined);
  }

  /** The statements of one flush. @returns each attempt's marker row id after it (absent: none). */
  private async write(em: Tx, batches: Map<AttemptLog, LogBatch>): Promise<Map<AttemptLog, number>> {
    const markers = new Map<AttemptLog, number>();
    const rows: NewLogLine[] = [];
    /** Attempts whose marker is inserted now, with the newest id they had before (the marker comes right after). */
    const newMarker = new Map<AttemptLog, number>();
    const now = this.clock.now();
    for (const [log, batch] of batches) {
      const { instanceId, attempt } = log.owner;
      let markerId = log.markerId;
      if (batch.drop > 0) {
        const ids = await this.lines.oldestIds(em, instanceId, attempt, markerId ?? 0, batch.drop);
        // The oldest dropped row becomes the marker: its id sorts before every kept line of the attempt.
        if (markerId === null && ids.length > 0) markerId = ids.shift() as number;
        await this.lines.deleteIds(em, ids);
      }
      if (batch.marker && (markerId === null || !(await this.lines.rewrite(em, markerId, 'warn', batch.marker.text)))) {
        // no stored line to turn into the marker (the dropped ones were still buffered, or retention removed it)
        markerId = null;
        newMarker.set(log, await this.lines.lastId(em, instanceId, attempt));
        rows.push({ ...log.owner, at: now, level: 'warn', line: batch.marker.text });
      }
      if (markerId !== null) markers.set(log, markerId);
      for (const l of batch.lines) rows.push({ ...log.owner, ...l });
    }
    await this.lines.insert(em, rows);
    for (const [log, before] of newMarker) {
      const [id] = await this.lines.oldestIds(em, log.owner.instanceId, log.owner.attempt, before, 1);
      if (id !== undefined) markers.set(log, id);
    }
    return markers;
  }
}

function key(instanceId: string, attempt: number): string {
  return `${instanceId}#${attempt}`;
}

function msg(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
