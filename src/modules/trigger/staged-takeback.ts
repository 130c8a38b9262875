import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock, groupBy } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { NODE_QUEUES, type NodeQueuePort } from '../coordination/index.js';
import {
  JobDefinition,
  JobDefinitionRepository,
  JobInstanceStatus,
  MisfirePolicy,
  StagedInstances,
  TriggerType,
  UnitOfWork,
} from '../metadata/index.js';
import { planFire } from './fire-planner.js';
import { TriggerService } from './trigger.service.js';

const PAGE = 5000;

/**
 * Hands a stopped leader's unreleased staged fires more than MISFIRE_THRESHOLD_MS late to the misfire policy
 * (docs/trigger.md "Staging"; the rule: StagedKind in metadata): the row is deleted, next_fire_time set back to it
 * and the job fired, all in one transaction, so no stop between them leaves a fire time without a row. Run by a new
 * leader before its first load and reconcile pass.
 */
@Injectable()
export class StagedTakeback {
  private readonly logger = new Logger(StagedTakeback.name);

  constructor(
    private readonly jobs: JobDefinitionRepository,
    private readonly staged: StagedInstances,
    private readonly uow: UnitOfWork,
    private readonly trigger: TriggerService,
    @Inject(NODE_QUEUES) private readonly queues: NodeQueuePort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** One page of found fires, TRIGGER_BATCH_SIZE jobs a transaction (a failing one is logged). @returns fires taken. */
  async run(): Promise<number> {
    const before = this.clock.now() - this.config.misfireThresholdMs;
    const found = await this.staged.findUnreleasedFires(this.config.namespace, before, PAGE);
    const queued = new Set<string>();
    for (const nodeId of new Set(found.map((r) => r.nodeId).filter((n): n is string => !!n)))
      for (const id of await this.queues.queuedIds(nodeId)) queued.add(id);
    // A staged fire still PENDING was never released (its release clears the mark); one on its node's queue was.
    const unreleased = found.filter((r) => r.status === JobInstanceStatus.PENDING || !queued.has(r.id));
    const byJob = [...groupBy(unreleased, (r) => r.jobId)];
    let taken = 0;
    let jobs = 0;
    for (let i = 0; i < byJob.length; i += this.config.triggerBatchSize) {
      const page = new Map(byJob.slice(i, i + this.config.triggerBatchSize));
      const n = await this.takeBackPage(page).catch((err: Error) => {
        this.logger.error(`taking back the staged fires of ${page.size} job(s) failed: ${err.message}`);
        return { taken: 0, jobs: 0 };
      });
      taken += n.taken;
      jobs += n.jobs;
    }
    if (taken > 0)
      this.logger.warn(
        `${taken} staged fire(s) of ${jobs} job(s) were not released before the scheduler stopped and are ` +
          `more than ${this.config.misfireThresholdMs} ms late: handed to the misfire policy`,
      );
    return taken;
  }

  /**
   * One page of jobs in one transaction, under their rows' locks: delete, rewind, and the firing page that
   * re-plans them at the same `now`. A paused job keeps its rows, a ONE_SHOT completed by the fire is enabled again.
   */
  private async takeBackPage(
    page: Map<string, Array<{ id: string; fireTime: number }>>,
  ): Promise<{ taken: number; jobs: number }> {
    const { taken, jobs, releases } = await this.uow.run(async (em) => {
      const defs = await this.jobs.lockForFiring(em, this.config.namespace, [...page.keys()]);
      const now = this.clock.now();
      const from = new Map<string, (t: number) => number>();
      const ids: string[] = [];
      for (const def of defs) {
        const completedOneShot = def.triggerType === TriggerType.ONE_SHOT && (def.completedAt ?? null) !== null;
        if (!def.enabled && !completedOneShot) continue;
        const next = def.nextFireTime;
        const start = (t: number) => (next === null || completedOneShot ? t : Math.min(next, t));
        from.set(def.id, start);
        const rows = replannable(def, page.get(def.id) ?? [], start, now, this.config.misfireThresholdMs);
        ids.push(...rows.map((r) => r.id));
      }
      const earliest = new Map<string, number>();
      const removed = await this.staged.deleteUnreleasedFires(em, ids);
      for (const r of removed) earliest.set(r.jobId, Math.min(earliest.get(r.jobId) ?? Infinity, r.fireTime));
      const refs = defs
        .filter((d) => earliest.has(d.id))
        .map((d) => ({ def: d, next: (from.get(d.id) as (t: number) => number)(earliest.get(d.id) as number) }));
      const moved = refs.filter(({ def, next }) => next !== def.nextFireTime || !def.enabled);
      await this.jobs.rewind(
        em,
        moved.map(({ def, next }) => ({ id: def.id, next })),
        now,
      );
      const fired = await this.trigger.fireRefs(
        refs.map(({ def, next }) => ({ id: def.id, next })),
        now,
      );
      return { taken: removed.length, jobs: refs.length, releases: fired.releases };
    });
    // The takeback committed: a failed release leaves its fires to the reconciler, not the count.
    await this.trigger
      .release(releases)
      .catch((err: Error) =>
        this.logger.error(
          `releasing ${releases.length} taken-back fire(s) failed, left to the reconciler: ${err.message}`,
        ),
      );
    return { taken, jobs };
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
