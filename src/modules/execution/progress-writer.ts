import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock, cutText, GroupCommitter } from '../../common/index.js';
import { APP_CONFIG, type LongTaskSettings } from '../../config/index.js';
import { ExecutionInstances, type ProgressReport } from '../metadata/index.js';
import { MetricsService } from '../observability/index.js';

/** Longest stored progress note, characters (the column is varchar(256)). */
export const PROGRESS_NOTE_MAX = 256;
const PROGRESS_BATCH = 500;

interface Window {
  until: number;
  pending: ProgressReport | null;
  cancel: (() => void) | null;
  /** The window's write in flight: {@link ProgressWriter.end} waits for it, or it could land after the finish. */
  writing: Promise<void>;
}

/**
 * Stores `ctx.progress` reports (docs/long-tasks.md "Progress"): at most one write per attempt per `intervalMs`
 * (the first of a window at once, the last one at the window's end: later reports replace a waiting one), the
 * writes of all attempts in group commits. Each write is conditional on the attempt's token and RUNNING; a failed
 * write is counted and logged, never thrown at the handler.
 */
@Injectable()
export class ProgressWriter {
  private readonly logger = new Logger(ProgressWriter.name);
  private readonly windows = new Map<string, Window>();
  private readonly groups = new GroupCommitter<ProgressReport, void>((g) => this.write(g), PROGRESS_BATCH);
  private readonly intervalMs: number;

  constructor(
    @Inject(ExecutionInstances) private readonly reports: Pick<ExecutionInstances, 'writeProgress'>,
    @Inject(MetricsService) private readonly metrics: Pick<MetricsService, 'progressCoalesced' | 'progressWrites'>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) config: { longTasks: Pick<LongTaskSettings, 'progressWriteIntervalMs'> },
  ) {
    this.intervalMs = config.longTasks.progressWriteIntervalMs;
  }

  /**
   * Takes a report of attempt `key` (instance and token). `fraction` not a finite number: ignored; else clamped to
   * 0..1. `note` is cut to {@link PROGRESS_NOTE_MAX} characters.
   */
  report(key: string, instanceId: string, fencingToken: number, fraction: number, note?: string): void {
    if (typeof fraction !== 'number' || !Number.isFinite(fraction)) return;
    const now = this.clock.now();
    const report: ProgressReport = {
      instanceId,
      fencingToken,
      progress: Math.min(1, Math.max(0, fraction)),
      note: note === undefined || note === null ? null : cutNote(String(note)),
      at: now,
    };
    const w = this.windows.get(key);
    if (!w || now >= w.until) {
      if (w) this.close(key);
      this.windows.set(key, {
        until: now + this.intervalMs,
        pending: null,
        cancel: null,
        writing: this.submitted(report),
      });
      return;
    }
    if (w.pending) this.metrics.progressCoalesced.inc();
    w.pending = report;
    w.cancel ??= this.clock.schedule(w.until - now, () => this.windowEnded(key));
  }

  /** The handler is done: a waiting report is written now, while the row is still RUNNING. Never throws. */
  async end(key: string): Promise<void> {
    const w = this.windows.get(key);
    if (!w) return;
    this.close(key);
    await w.writing;
    if (w.pending) await this.submitted({ ...w.pending, at: this.clock.now() });
  }

  private close(key: string): void {
    const w = this.windows.get(key);
    if (!w) return;
    w.cancel?.();
    this.windows.delete(key);
  }

  private windowEnded(key: string): void {
    const w = this.windows.get(key);
    if (!w) return;
    w.cancel = null;
    if (!w.pending) return;
    const report = { ...w.pending, at: this.clock.now() };
    w.pending = null;
    w.until = report.at + this.intervalMs;
    w.writing = this.submitted(report);
  }

  /** Resolves once `report` was written, refused or failed (counted and logged). Never throws. */
  private submitted(report: ProgressReport): Promise<void> {
    return this.groups.submit(report).catch((err: Error) => {
      this.metrics.progressWrites.inc({ outcome: 'failed' });
      this.logger.warn(`progress of instance ${report.instanceId} not stored: ${err.message}`);
    });
  }

  /** One group: the last report per instance (earlier ones coalesce), one conditional UPDATE per 500 rows. */
  private async write(group: ProgressReport[]): Promise<void[]> {
    const last = new Map<string, ProgressReport>();
    for (const r of group) {
      if (last.has(r.instanceId)) this.metrics.progressCoalesced.inc();
      last.set(r.instanceId, r);
    }
    const stored = await this.reports.writeProgress([...last.values()]);
    this.metrics.progressWrites.inc({ outcome: 'stored' }, stored);
    if (last.size > stored) this.metrics.progressWrites.inc({ outcome: 'stale' }, last.size - stored);
    return group.map(() => undefined);
  }
}

/** `note` within {@link PROGRESS_NOTE_MAX} UTF-16 units (so as many characters at most, the column's count). */
function cutNote(note: string): string {
  return cutText(note, PROGRESS_NOTE_MAX);
}
