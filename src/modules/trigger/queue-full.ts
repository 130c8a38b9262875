import { Logger } from '@nestjs/common';
import { type JobInstance } from '../metadata/index.js';
import { MetricsService } from '../observability/index.js';
import { QUEUE_FULL } from './overlap.js';

/** Jobs remembered in a streak at most; past it the memory starts again. */
const STREAKS_MAX = 10_000;

/**
 * Fires a full QUEUE did not take (docs/trigger.md "Overlap"): each counted in
 * `tickwheel_overlap_queue_full_total`, and one warning per job per streak (its first skipped fire since a fire
 * it queued or ran), not one line per fire. One per TriggerService (its state is the streaks).
 */
export class QueueFullWatch {
  private readonly logger = new Logger(QueueFullWatch.name);
  private readonly streaks = new Set<string>();

  constructor(private readonly metrics: MetricsService) {}

  /** Reads the rows one pass wrote (committed), in fire order; only the first shard of a fire counts. */
  record(rows: readonly JobInstance[]): void {
    for (const row of rows) {
      if (!row.jobId || row.shardIndex !== 0) continue;
      if (!(row.error ?? '').startsWith(QUEUE_FULL)) {
        this.streaks.delete(row.jobId);
        continue;
      }
      this.metrics.queueFull.inc();
      if (this.streaks.has(row.jobId)) continue;
      if (this.streaks.size >= STREAKS_MAX) this.streaks.clear();
      this.streaks.add(row.jobId);
      this.logger.warn(
        `job ${row.jobCode ?? row.jobId}: fire of ${new Date(row.fireTime).toISOString()} not run, its QUEUE is ` +
          `full (${row.error}); later skips of this streak are only counted (tickwheel_overlap_queue_full_total)`,
      );
    }
  }
}
