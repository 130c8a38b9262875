import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock, groupBy } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { COORDINATION, type CoordinationPort } from '../coordination/index.js';
import {
  JobDefinitionRepository,
  JobInstanceRepository,
  JobInstanceStatus,
  TriggerType,
  UnitOfWork,
} from '../metadata/index.js';

const PAGE = 5000;

/**
 * Hands a stopped leader's unreleased staged fires more than MISFIRE_THRESHOLD_MS late to the misfire policy
 * (docs/trigger.md "Staging"): the row is deleted and next_fire_time set back to it, so the firing pass plans it.
 * Run by a new leader before its first load and reconcile pass.
 */
@Injectable()
export class StagedTakeback {
  private readonly logger = new Logger(StagedTakeback.name);

  constructor(
    private readonly jobs: JobDefinitionRepository,
    private readonly instances: JobInstanceRepository,
    private readonly uow: UnitOfWork,
    @Inject(COORDINATION) private readonly coordination: CoordinationPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** One page, job by job (a failing job is logged, left to the reconciler). @returns the fires taken back. */
  async run(): Promise<number> {
    const before = this.clock.now() - this.config.misfireThresholdMs;
    const found = await this.instances.findStagedUnstartedBefore(this.config.namespace, before, PAGE);
    const queued = new Set<string>();
    for (const nodeId of new Set(found.map((r) => r.nodeId).filter((n): n is string => !!n)))
      for (const id of await this.coordination.queuedIds(nodeId)) queued.add(id);
    // A row found on its node's queue was released: it stays.
    const unreleased = found.filter((r) => r.status === JobInstanceStatus.PENDING || !queued.has(r.id));
    let taken = 0;
    let jobs = 0;
    for (const [jobId, rows] of groupBy(unreleased, (r) => r.jobId as string)) {
      const n = await this.takeBackJob(
        jobId,
        rows.map((r) => r.id),
      ).catch((err: Error) => {
        this.logger.error(`taking back the staged fires of job ${jobId} failed: ${err.message}`);
        return 0;
      });
      taken += n;
      if (n > 0) jobs++;
    }
    if (taken > 0)
      this.logger.warn(
        `${taken} staged fire(s) of ${jobs} job(s) were not released before the scheduler stopped and are ` +
          `more than ${this.config.misfireThresholdMs} ms late: handed to the misfire policy`,
      );
    return taken;
  }

  /** Under the job row's lock; a paused job keeps its rows, a ONE_SHOT completed by the fire is enabled again. */
  private takeBackJob(jobId: string, ids: string[]): Promise<number> {
    return this.uow.run(async (em) => {
      const [def] = await this.jobs.lockForFiring(em, this.config.namespace, [jobId]);
      const completedOneShot = def?.triggerType === TriggerType.ONE_SHOT && (def.completedAt ?? null) !== null;
      if (!def || (!def.enabled && !completedOneShot)) return 0;
      const times = await this.instances.deleteUnstarted(em, ids);
      if (times.length === 0) return 0;
      const earliest = Math.min(...times);
      if (def.nextFireTime === null || def.nextFireTime > earliest || completedOneShot)
        await this.jobs.update(
          def,
          { nextFireTime: earliest, enabled: true, completedAt: null, updatedAt: this.clock.now() },
          em,
        );
      return times.length;
    });
  }
}
