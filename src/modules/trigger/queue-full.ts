import { Logger } from '@nestjs/common';
import { type JobInstance } from '../metadata/index.js';
import { MetricsService } from '../observability/index.js';
import { QUEUE_FULL } from './overlap.js';

/** Jobs remembered at most; past it the memory starts again. */
const JOBS_MAX = 10_000;
/** At most one warning per job in this long (ms); the skips between are counted and named in the next line. */
export const QUEUE_FULL_WARN_EVERY_MS = 60_000;

/**
 * Fires a full QUEUE did not take (docs/trigger.md "A bounded queue, and pause"): each counted, and at most one
 * warning per job a minute naming the skips since its last line (per streak, steady overload warned every run).
 */
export class QueueFullWatch {
  private readonly logger = new Logger(QueueFullWatch.name);
  private readonly jobs = new Map<string, { warnedAt: number; since: number }>();

  constructor(private readonly metrics: MetricsService) {}

  /** Reads the rows one pass wrote (committed), in fire order, at `now` (epoch ms); a fire's first shard counts. */
  record(rows: readonly JobInstance[], now: number): void {
    for (const row of rows) {
      if (!row.jobId || row.shardIndex !== 0 || !(row.error ?? '').startsWith(QUEUE_FULL)) continue;
      this.metrics.queueFull.inc();
      const seen = this.jobs.get(row.jobId);
      if (seen && now - seen.warnedAt < QUEUE_FULL_WARN_EVERY_MS) {
        seen.since += 1;
        continue;
      }
      if (!seen && this.jobs.size >= JOBS_MAX) this.jobs.clear();
      const more = seen && seen.since > 0 ? `; ${seen.since} more skipped since the last line` : '';
      this.jobs.set(row.jobId, { warnedAt: now, since: 0 });
      this.logger.warn(
        `job ${row.jobCode ?? row.jobId}: fire of ${new Date(row.fireTime).toISOString()} not run, its QUEUE is ` +
          `full (${row.error})${more}; at most one line a minute per job, every skip counted ` +
          '(tickwheel_overlap_queue_full_total)',
      );
    }
  }
}
