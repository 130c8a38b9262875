import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock, groupBy } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { COORDINATION, type CoordinationPort } from '../coordination/index.js';
import type { StagedFire } from '../dispatch/index.js';
import {
  JobDefinition,
  JobDefinitionRepository,
  JobInstanceRepository,
  JobInstanceStatus,
  MisfirePolicy,
  TriggerType,
  UnitOfWork,
} from '../metadata/index.js';
import { planFire } from './fire-planner.js';
import { TriggerService } from './trigger.service.js';

const PAGE = 5000;

/**
 * Hands a stopped leader's unreleased staged fires more than MISFIRE_THRESHOLD_MS late to the misfire policy
 * (docs/trigger.md "Staging"): the row is deleted, next_fire_time set back to it and the job fired, all in one
 * transaction, so no stop between them leaves a fire time without a row. Run by a new leader before its first
 * load and reconcile pass.
 */
@Injectable()
export class StagedTakeback {
  private readonly logger = new Logger(StagedTakeback.name);

  constructor(
    private readonly jobs: JobDefinitionRepository,
    private readonly instances: JobInstanceRepository,
    private readonly uow: UnitOfWork,
    private readonly trigger: TriggerService,
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
      const n = await this.takeBackJob(jobId, rows).catch((err: Error) => {
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

  /**
   * Under the job row's lock; a paused job keeps its rows, a ONE_SHOT completed by the fire is enabled again.
   * The re-plan is written in the same transaction, at the same `now` as the choice of rows.
   */
  private async takeBackJob(jobId: string, rows: Array<{ id: string; fireTime: number }>): Promise<number> {
    const { taken, staged } = await this.uow.run(async (em) => {
      const none = { taken: 0, staged: [] as StagedFire[] };
      const [def] = await this.jobs.lockForFiring(em, this.config.namespace, [jobId]);
      const completedOneShot = def?.triggerType === TriggerType.ONE_SHOT && (def.completedAt ?? null) !== null;
      if (!def || (!def.enabled && !completedOneShot)) return none;
      const now = this.clock.now();
      const from = (t: number) => (def.nextFireTime === null || completedOneShot ? t : Math.min(def.nextFireTime, t));
      const kept = replannable(def, rows, from, now, this.config.misfireThresholdMs);
      const times = await this.instances.deleteUnstarted(
        em,
        kept.map((r) => r.id),
      );
      if (times.length === 0) return none;
      const next = from(Math.min(...times));
      if (next !== def.nextFireTime || completedOneShot)
        await this.jobs.update(
          def,
          { nextFireTime: next, enabled: true, completedAt: null, updatedAt: this.clock.now() },
          em,
        );
      const fired = await this.trigger.fireRefs([{ id: jobId, next }], now);
      return { taken: times.length, staged: fired.staged };
    });
    await this.trigger.release(staged);
    return taken;
  }
}

/**
 * The rows whose fire times one pass of the misfire policy re-plans when planned from `from(fireTime)`: a
 * FIRE_ALL or SKIP pass stops at FIRE_ALL_MAX and drops the rest, so older rows are left where they are
 * (their fires happened; only FIRE_ONCE_NOW drops missed fires on purpose). `rows` oldest first.
 */
function replannable<R extends { fireTime: number }>(
  def: JobDefinition,
  rows: R[],
  from: (t: number) => number,
  now: number,
  thresholdMs: number,
): R[] {
  if (def.misfirePolicy === MisfirePolicy.FIRE_ONCE_NOW) return rows;
  const sorted = [...rows].sort((a, b) => a.fireTime - b.fireTime);
  const fits = (i: number) => {
    const at = Object.assign(Object.create(Object.getPrototypeOf(def) as object) as JobDefinition, def, {
      nextFireTime: from(sorted[i].fireTime),
    });
    return planFire(at, now, thresholdMs).dropped === 0;
  };
  // Planning from a later row misses fewer times: binary search for the oldest row that fits.
  let [lo, hi] = [0, sorted.length];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (fits(mid)) hi = mid;
    else lo = mid + 1;
  }
  return sorted.slice(lo);
}
