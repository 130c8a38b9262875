import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { type ClaimedInstance, TriggerSource } from '../metadata/index.js';
import { MetricsService } from '../observability/index.js';

/** At most one warning line per job in this window, ms; the late starts between are counted into the next line. */
export const LATE_WARN_EVERY_MS = 60_000;
/** Jobs remembered for the window above; past it the entries whose window ended are dropped. */
const MAX_TRACKED_JOBS = 10_000;
/** Instances of a job's schedule: a manual run, a backfill or a retry is not "a fire that starts late". */
const SCHEDULED = new Set<string>([TriggerSource.SCHEDULE, TriggerSource.MISFIRE]);

/**
 * The late-start warning (docs/observability.md "Late fires"): a claim that starts the first attempt of a scheduled
 * fire more than LATE_FIRE_WARN_MS (default 500; 0 = off) after its fire time counts it in
 * `tickwheel_late_fire_starts_total` and logs a warning naming the job (id, code, app, namespace) and how late (ms),
 * at most one line per job per {@link LATE_WARN_EVERY_MS}, with the late starts not logged since the last.
 * Lateness is this node's claim time minus the fire time, both of the node clocks that wrote them.
 */
@Injectable()
export class LateStarts {
  private readonly logger = new Logger('LateFire');
  /** By job id: until when its lines are held back, and how many late starts were not logged meanwhile. */
  private readonly held = new Map<string, { until: number; more: number }>();

  constructor(
    @Inject(MetricsService) private readonly metrics: Pick<MetricsService, 'lateFireStarts'>,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'lateFireWarnMs' | 'namespace'>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Looks at each claimed attempt; never throws. */
  claimed(claims: readonly ClaimedInstance[]): void {
    const limit = this.config.lateFireWarnMs;
    if (limit <= 0) return;
    for (const { row, startedAt } of claims) {
      if (row.jobId === null || row.attempt !== 1 || !SCHEDULED.has(row.triggerSource)) continue;
      const lateMs = startedAt - row.fireTime;
      if (lateMs > limit) this.late(row.jobId, `${row.appId}/${row.jobCode ?? '?'}`, row.fireTime, lateMs);
    }
  }

  private late(jobId: string, job: string, fireTime: number, lateMs: number): void {
    this.metrics.lateFireStarts.inc();
    const now = this.clock.now();
    const h = this.held.get(jobId);
    if (h && now < h.until) {
      h.more++;
      return;
    }
    if (this.held.size >= MAX_TRACKED_JOBS) for (const [id, e] of this.held) if (e.until <= now) this.held.delete(id);
    this.held.set(jobId, { until: now + LATE_WARN_EVERY_MS, more: 0 });
    const more = h && h.more > 0 ? `; ${h.more} more late start(s) of it since the last line` : '';
    this.logger.warn(
      `job ${job} (id ${jobId}, namespace ${this.config.namespace}) started ${lateMs} ms late: fire time ` +
        `${new Date(fireTime).toISOString()}, over LATE_FIRE_WARN_MS ${this.config.lateFireWarnMs}${more}`,
    );
  }
}
