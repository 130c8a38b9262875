import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock, ConflictError, cutText, type TraceContext } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { CancelService, DispatchService, type Release } from '../dispatch/index.js';
import {
  CallbackDeliveryRepository,
  CORRUPT_ROW,
  type DueRef,
  FireLedger,
  InstanceReads,
  JobDefinition,
  JobDefinitionRepository,
  JobInstance,
  JobInstanceStatus,
  markStagedFires,
  type MisfirePolicy,
  OverlapPolicy,
  OWNERLESS_APP_ID,
  ScheduleState,
  TriggerSource,
  TriggerType,
  type Tx,
  UnitOfWork,
} from '../metadata/index.js';
import { type LabelsMatch, MetricsService, type MisfirePolicyLabel } from '../observability/index.js';
import { FirePlan, misfiresHandled, planFire } from './fire-planner.js';
import { scheduledTimes } from './backfill.js';
import { newFire } from './fire-rows.js';
import { decideOverlap } from './overlap.js';
import { QueueFullWatch } from './queue-full.js';

const _policyLabels: LabelsMatch<`${MisfirePolicy}`, MisfirePolicyLabel> = true;

/** App id on the fires of a job without an owner (docs/tenancy.md); a job's fires carry its owner's app id. */
export const SCHEDULER_APP_ID = OWNERLESS_APP_ID;

/** Work inside the transaction that writes extra fires (trigger-now, backfill), e.g. their audit row. */
export type InFireTransaction = (em: Tx, rows: JobInstance[]) => Promise<void>;

/** `admit` runs before extra fires are written (its throw writes nothing); `inTx` inside their transaction. */
export interface ExtraFireHooks {
  admit?: (rows: JobInstance[]) => Promise<void>;
  inTx?: InFireTransaction;
}

/**
 * Writes the fire ledger (docs/trigger.md "Firing"): instance rows and the conditional advance of
 * next_fire_time in one transaction, ids handed to dispatch only after the commit.
 */
@Injectable()
export class TriggerService {
  private readonly logger = new Logger(TriggerService.name);
  private readonly queueFull: QueueFullWatch;

  constructor(
    private readonly jobs: JobDefinitionRepository,
    private readonly ledger: FireLedger,
    private readonly reads: InstanceReads,
    private readonly dispatch: DispatchService,
    private readonly cancels: CancelService,
    private readonly metrics: MetricsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly deliveries: CallbackDeliveryRepository,
  ) {
    this.queueFull = new QueueFullWatch(metrics);
  }

  /** Fires every job due now through the wheel's path; returns the instances created (tests, on demand). */
  async firePass(): Promise<number> {
    const refs = await this.jobs.findDueRefs(this.config.namespace, this.clock.now(), this.config.triggerBatchSize);
    const fired = await this.fireRefs(refs);
    await this.release(fired.releases);
    return fired.created;
  }

  /**
   * Writes the ledger for (job, expected next_fire_time) pairs, in pages of TRIGGER_BATCH_SIZE; a job whose
   * row changed since it was loaded is skipped. Releases nothing: the caller releases `releases` at fire time.
   * `now` (default: the clock per page) is the planning instant; inside an open unit of work, the pages join it.
   * @returns instances created (their count and rows), each advanced job's next fire (for the wheel), and the fires
   * to release.
   */
  async fireRefs(
    refs: Array<{ id: string; next: number }>,
    now?: number,
  ): Promise<{ created: number; next: DueRef[]; releases: Release[]; fired: JobInstance[] }> {
    const out = { created: 0, next: [] as DueRef[], releases: [] as Release[], fired: [] as JobInstance[] };
    for (let i = 0; i < refs.length; i += this.config.triggerBatchSize) {
      const fired = await this.firePage(refs.slice(i, i + this.config.triggerBatchSize), now ?? this.clock.now());
      out.created += fired.created;
      out.next.push(...fired.next);
      out.releases.push(...fired.releases);
      out.fired.push(...fired.fired);
    }
    return out;
  }

  /** Releases fires to their executors and records trigger lateness (release minus fire time). */
  async release(fires: Release[]): Promise<void> {
    if (fires.length === 0) return;
    await this.dispatch.deliver(fires);
    const released = this.clock.now();
    for (const f of fires) this.metrics.triggerLatenessSeconds.observe(Math.max(0, released - f.at) / 1000);
  }

  /** Pushes staged delayed rows at their due time (docs/dispatch.md "Delayed tasks"); no fire, no lateness metric. */
  deliverDelayed(rows: Release[]): Promise<void> {
    return rows.length === 0 ? Promise.resolve() : this.dispatch.deliver(rows);
  }

  /**
   * Removes a job's future staged fires inside `em`, **after** the job row's UPDATE/DELETE (that row lock orders it
   * against a firing page). A caller keeping the schedule must set next_fire_time to `earliest`. `lastFireTime`, when
   * fires were removed: last_fire_time put back to the latest fire left.
   */
  async unstage(
    em: Tx,
    jobId: string,
  ): Promise<{ removed: number; earliest: number | null; lastFireTime?: number | null }> {
    const out = await this.ledger.deleteStagedFires(em, jobId, this.clock.now());
    if (out.removed === 0) return out;
    const lastFireTime = await this.ledger.latestScheduledFire(em, jobId);
    await this.jobs.setLastFire(em, jobId, lastFireTime);
    return { ...out, lastFireTime };
  }

  /**
   * Trigger-now: a MANUAL fire under the job's overlap policy; `params` override the job's; the fire joins the
   * caller's trace `parent` when given.
   * @returns every shard of the fire, shard 0 first.
   * @throws ConflictError when the job already has a row for this millisecond; whatever `hooks` throw.
   */
  async triggerNow(
    def: JobDefinition,
    params?: Record<string, unknown>,
    parent: TraceContext | null = null,
    hooks: ExtraFireHooks = {},
  ): Promise<JobInstance[]> {
    const now = this.clock.now();
    const rows = newFire(def, now, TriggerSource.MANUAL, now, params, now, parent);
    const byId = new Map((await this.insertUnderOverlap(def, rows, 'a manual trigger', hooks)).map((r) => [r.id, r]));
    const shards = rows.map((r) => byId.get(r.id)).filter((r): r is JobInstance => r !== undefined);
    if (shards.length < rows.length)
      throw new ConflictError(
        `job ${def.code} already has an instance for ${new Date(now).toISOString()}; trigger again`,
      );
    return shards;
  }

  /**
   * One BACKFILL instance per scheduled time in [fromMs, toMs] that has no ledger row yet, under the overlap
   * policy, in one transaction. `hooks.admit` sees every planned row.
   * @throws ValidationError(`to`) over the backfill bounds, (`triggerType`) for FIXED_DELAY; what `hooks` throw.
   */
  async backfill(
    def: JobDefinition,
    fromMs: number,
    toMs: number,
    hooks: ExtraFireHooks = {},
  ): Promise<{ created: number; existing: number; fireTimes: number[] }> {
    const now = this.clock.now();
    const times = scheduledTimes(def, fromMs, toMs, now);
    const stored = await this.insertUnderOverlap(
      def,
      times.flatMap((t) => newFire(def, t, TriggerSource.BACKFILL, now)),
      'a backfilled fire',
      hooks,
    );
    const filled = new Set(stored.map((r) => r.fireTime)).size;
    return { created: filled, existing: times.length - filled, fireTimes: times };
  }

  /**
   * What {@link backfill} would do, writing nothing (its dry run): the same times and checks, `admit` seeing the
   * same planned rows; `created` counts the fires that lack a row of some shard. @throws as backfill.
   */
  async backfillPlan(
    def: JobDefinition,
    fromMs: number,
    toMs: number,
    admit?: ExtraFireHooks['admit'],
  ): Promise<{ created: number; existing: number; fireTimes: number[] }> {
    const now = this.clock.now();
    const times = scheduledTimes(def, fromMs, toMs, now);
    if (admit) await admit(times.flatMap((t) => newFire(def, t, TriggerSource.BACKFILL, now)));
    const filled = await this.ledger.filledFires(def.id, times, Math.max(1, def.shardTotal ?? 1));
    const existing = times.filter((t) => filled.has(t)).length;
    return { created: times.length - existing, existing, fireTimes: times };
  }

  /** Writes extra fires under the overlap policy in one transaction, cancels REPLACE victims, dispatches. */
  private async insertUnderOverlap(
    def: JobDefinition,
    rows: JobInstance[],
    what: string,
    { admit, inTx }: ExtraFireHooks,
  ): Promise<JobInstance[]> {
    const replaced: JobInstance[] = [];
    if (admit) await admit(rows);
    await this.uow.run(async (em) => {
      const busy = await this.ledger.unfinishedOfJobs(em, [def.id], this.clock.now());
      this.applyOverlap(def, rows, busy.get(def.id) ?? [], replaced);
      await this.insertWithDeliveries(em, rows, this.clock.now());
      if (inTx) await inTx(em, rows);
    });
    for (const old of replaced) await this.cancels.cancel(old, `OVERLAP_REPLACE: replaced by ${what}`);
    const stored = await this.reads.findByIds(rows.map((r) => r.id));
    this.queueFull.record(stored, this.clock.now());
    await this.dispatch.dispatchRows(stored.filter((r) => r.status === JobInstanceStatus.PENDING));
    return stored;
  }

  /**
   * One ledger page in one transaction: lock the jobs, keep those still at the expected next_fire_time,
   * INSERT IGNORE the pre-routed rows, advance the jobs whose due row this leader wrote in one UPDATE; the
   * others advance alone, conditionally, so a concurrent backfill or trigger row never wedges a schedule.
   */
  private async firePage(
    page: Array<{ id: string; next: number }>,
    now: number,
  ): Promise<{ created: number; next: DueRef[]; releases: Release[]; fired: JobInstance[] }> {
    const replaced: JobInstance[] = [];
    const next: DueRef[] = [];
    const created: JobInstance[] = [];
    const misfires = new Map<MisfirePolicy, number>();
    await this.uow.run(async (em) => {
      misfires.clear();
      const expected = new Map(page.map((r) => [r.id, r.next]));
      const locked = (await this.jobs.lockForFiring(em, this.config.namespace, [...expected.keys()])).filter(
        (d) => d.enabled && d.nextFireTime === expected.get(d.id),
      );
      // A job that may no longer be staged goes back to the wheel for its fire time.
      for (const d of locked)
        if (!stageable(d) && (d.nextFireTime as number) > now)
          next.push({ id: d.id, next: d.nextFireTime as number, stage: false });
      const due = locked
        .filter((d) => stageable(d) || (d.nextFireTime as number) <= now)
        .sort((a, b) => (a.nextFireTime as number) - (b.nextFireTime as number));
      if (due.length === 0) return;
      const guarded = due.filter((d) => d.overlapPolicy !== OverlapPolicy.ALLOW).map((d) => d.id);
      const busy = await this.ledger.unfinishedOfJobs(em, guarded, now);
      const firing = due.map((def) => {
        const plan = planFire(def, now, this.config.misfireThresholdMs);
        const fired = plan.fireTimes.flatMap((t) => newFire(def, t, plan.source, now, undefined, Math.max(t, now)));
        this.applyOverlap(def, fired, busy.get(def.id) ?? [], replaced);
        const skipped = plan.skippedTimes
          .flatMap((t) => newFire(def, t, plan.source, now))
          .map((r) =>
            Object.assign(r, {
              status: JobInstanceStatus.CANCELLED,
              finishedAt: now,
              error:
                'MISFIRE_SKIP: not fired in time (no scheduler, or client disabled); not run (misfire policy SKIP)',
            }),
          );
        return { def, plan, fired: [...skipped, ...fired] };
      });
      const rows = firing.flatMap((f) => f.fired);
      await this.dispatch.preRoute(rows);
      markStagedFires(rows, now);
      const written = await this.insertWithDeliveries(em, rows, now);
      const bulk: Array<{ id: string; expected: number; next: number | null; last: number }> = [];
      const completed: string[] = [];
      for (const { def, plan, fired } of firing) {
        const owned = fired.length > 0 && written.has(fired[0].id) && !plan.error;
        if (owned)
          bulk.push({
            id: def.id,
            expected: def.nextFireTime as number,
            next: plan.nextFireTime,
            last: plan.fireTimes.at(-1) as number,
          });
        else if (!(await this.advanceOne(em, def, plan, now))) continue;
        if (def.triggerType === TriggerType.ONE_SHOT && !plan.error) completed.push(def.id);
        if (plan.nextFireTime !== null) next.push({ id: def.id, next: plan.nextFireTime, stage: stageable(def) });
        const handled = misfiresHandled(plan);
        if (handled > 0) misfires.set(def.misfirePolicy, (misfires.get(def.misfirePolicy) ?? 0) + handled);
        created.push(...fired.filter((r) => written.has(r.id)));
      }
      await this.jobs.advanceMany(em, bulk, now);
      // A ONE_SHOT's single fire (run, or recorded as skipped) completes it, in the transaction that wrote it.
      await this.jobs.completeOneShots(em, completed, now);
    });
    // Counted once committed: every missed fire time the policy handled, not one per job.
    for (const [policy, n] of misfires) this.metrics.misfires.inc({ policy }, n);
    this.queueFull.record(created, now);
    for (const old of replaced) await this.cancels.cancel(old, 'OVERLAP_REPLACE: replaced by a newer fire');
    const releases = created
      .filter((r) => r.status === JobInstanceStatus.PENDING || r.status === JobInstanceStatus.DISPATCHED)
      .map((r) => ({ id: r.id, appId: r.appId, at: r.fireTime, priority: r.priority, nodeId: r.nodeId }));
    return { created: created.length, next, releases, fired: created };
  }

  /** INSERT IGNOREs `rows`, then the deliveries of those written CANCELLED. @returns the ids this really wrote. */
  private async insertWithDeliveries(em: Tx, rows: JobInstance[], now: number): Promise<Set<string>> {
    const inserted = await this.ledger.insertIgnore(em, rows);
    const ids = rows.map((r) => r.id);
    const written = inserted === rows.length ? new Set(ids) : await this.ledger.existingIds(em, ids);
    const finals = rows
      .filter((r) => r.status === JobInstanceStatus.CANCELLED && written.has(r.id))
      .map((r) => ({ ...r, finalStatus: r.status }));
    await this.deliveries.enqueueFinal(em, finals, now);
    return written;
  }

  /** The rare path: one conditional advance (records a schedule error when there is one). */
  private async advanceOne(em: Tx, def: JobDefinition, plan: FirePlan, now: number): Promise<boolean> {
    const advanced = await this.jobs.advance(em, def.id, def.nextFireTime as number, {
      nextFireTime: plan.nextFireTime,
      lastFireTime: plan.fireTimes.at(-1) ?? def.lastFireTime,
      updatedAt: now,
      ...(plan.error ? { scheduleState: ScheduleState.ERROR, scheduleError: cutText(plan.error, 1000) } : {}),
    });
    if (advanced && plan.error)
      this.logger.error(`job ${def.code}: schedule stopped, next fire not computable: ${plan.error}`);
    if (advanced && plan.error?.startsWith(CORRUPT_ROW)) this.metrics.rowsQuarantined.inc({ reason: CORRUPT_ROW });
    return advanced;
  }

  /** Overlap decision per fire (shards share it); stored REPLACE victims go to `replaced`. */
  private applyOverlap(def: JobDefinition, fired: JobInstance[], busy: JobInstance[], replaced: JobInstance[]): void {
    if (def.overlapPolicy === OverlapPolicy.ALLOW) return;
    const fresh = new Set(fired);
    for (const shards of groupByFire(fired)) {
      const [first, ...rest] = shards;
      for (const victim of decideOverlap(def, busy, first).replace) {
        if (fresh.has(victim))
          Object.assign(victim, {
            status: JobInstanceStatus.CANCELLED,
            finishedAt: first.createdAt,
            error: 'OVERLAP_REPLACE: replaced by a newer fire',
          });
        else replaced.push(victim);
      }
      for (const r of rest) Object.assign(r, { status: first.status, error: first.error });
    }
    for (const row of fired) if (row.status === JobInstanceStatus.CANCELLED) row.finishedAt = row.createdAt;
  }
}

/** Staging is allowed only when nothing depends on the fire time: overlap ALLOW, no maxConcurrency. */
function stageable(def: JobDefinition): boolean {
  return def.overlapPolicy === OverlapPolicy.ALLOW && !(def.maxConcurrency > 0);
}

/** Rows grouped by fire time (the shards of one fire), in order of first appearance. */
function groupByFire(rows: JobInstance[]): JobInstance[][] {
  const out = new Map<number, JobInstance[]>();
  for (const r of rows) {
    const group = out.get(r.fireTime);
    if (group) group.push(r);
    else out.set(r.fireTime, [r]);
  }
  return [...out.values()];
}
