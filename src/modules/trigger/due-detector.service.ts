import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { JobDefinitionRepository } from '../metadata/index.js';
import { MetricsService } from '../observability/index.js';

const PAGE = 200;
const REMEMBER = 10_000;

/**
 * Counts and logs, once each, fires still without a ledger row DUE_ALERT_AFTER_MS after their time: an
 * enabled job whose next_fire_time is that far past (row and advance commit together). Run by the leader.
 */
@Injectable()
export class DueDetectorService {
  private readonly logger = new Logger(DueDetectorService.name);
  private readonly seen = new Set<string>();

  constructor(
    private readonly jobs: JobDefinitionRepository,
    private readonly metrics: MetricsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * One check; returns the fires newly found overdue. A fire due before `leadingSince` (the takeover, epoch ms)
   * counts from then: what was missed while no leader ran is the misfire policy's.
   */
  async check(leadingSince = 0): Promise<number> {
    const now = this.clock.now();
    const before = now - this.config.dueAlertAfterMs;
    if (leadingSince > before) return 0;
    const overdue = await this.jobs.findOverdue(this.config.namespace, before, PAGE);
    let fresh = 0;
    for (const def of overdue) {
      const key = `${def.id}:${def.nextFireTime}`;
      if (this.seen.has(key)) continue;
      if (this.seen.size >= REMEMBER) this.seen.clear();
      this.seen.add(key);
      fresh++;
      this.metrics.dueNotFired.inc();
      this.logger.warn(
        `job ${def.code}: fire due at ${new Date(def.nextFireTime as number).toISOString()} has no ledger row ` +
          `after ${now - (def.nextFireTime as number)} ms`,
      );
    }
    return fresh;
  }
}
