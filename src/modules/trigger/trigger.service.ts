import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { CancelService, DispatchService } from '../dispatch/index.js';
import {
  BackoffKind,
  JobDefinition,
  JobDefinitionRepository,
  JobInstance,
  JobInstanceRepository,
  JobInstanceStatus,
  newJobInstance,
  OverlapPolicy,
  ScheduleState,
  TriggerSource,
  type Tx,
} from '../metadata/index.js';
import { MetricsService } from '../observability/index.js';
import { FirePlan, planFire } from './fire-planner.js';
import { scheduledTimes } from './backfill.js';
import { decideOverlap } from './overlap.js';

/** The app id recorded on instances the scheduler creates (API tasks carry the caller's app id). */
export const SCHEDULER_APP_ID = 'tickwheel';

/**
 * Fires due job definitions (DESIGN §5, "Firing"). One pass reads a page of enabled jobs whose
 * next_fire_time has come, then writes the instance rows **and** the advance of next_fire_time in one
 * transaction (INSERT IGNORE on the unique (job_id, fire_time, shard_index) key; the advance is
 * conditional on the old next_fire_time), and only after the commit hands the new ids to dispatch.
 * A crash before the commit loses nothing (the job is still due); a crash after it loses nothing either
 * (the reconciler dispatches PENDING rows). Two leaders firing the same page create each fire once.
 */
@Injectable()
export class TriggerService {
  private readonly logger = new Logger(TriggerService.name);

  constructor(
    private readonly jobs: JobDefinitionRepository,
    private readonly instances: JobInstanceRepository,
    private readonly dispatch: DispatchService,
    private readonly cancels: CancelService,
    private readonly metrics: MetricsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Fires every job due at or before now through the same path as the wheel ({@link fireRefs}): one
   * page scan of (id, next_fire_time), then the fire ledger. Returns the number of instances created.
   * Used to fire on demand (tests force two schedulers to fire at once with it).
   */
  async firePass(): Promise<number> {
    const refs = await this.jobs.findDueRefs(this.config.namespace, this.clock.now(), this.config.triggerBatchSize);
    return (await this.fireRefs(refs)).created;
  }

  /**
   * Fires the given (job, expected next_fire_time) pairs the wheel found due, in pages of
   * TRIGGER_BATCH_SIZE. A job whose row changed since it was loaded (paused, edited, fired by another
   * leader) is skipped. Returns how many instances were created and the new next fire of every job
   * advanced, for the wheel.
   */
  async fireRefs(refs: Array<{ id: string; next: number }>): Promise<{ created: number; next: Array<{ id: string; next: number }> }> {
    const out = { created: 0, next: [] as Array<{ id: string; next: number }> };
    for (let i = 0; i < refs.length; i += this.config.triggerBatchSize) {
      const page = refs.slice(i, i + this.config.triggerBatchSize);
      const expected = new Map(page.map((r) => [r.id, r.next]));
      const defs = (await this.jobs.findByIds(this.config.namespace, [...expected.keys()]))
        .filter((d) => d.enabled && d.nextFireTime === expected.get(d.id))
        .sort((a, b) => (a.nextFireTime as number) - (b.nextFireTime as number));
      if (defs.length === 0) continue;
      const fired = await this.firePage(defs, this.clock.now());
      out.created += fired.created;
      out.next.push(...fired.next);
    }
    return out;
  }

  /**
   * Creates a MANUAL instance of `def` now (trigger-now); `params` override the job's when given.
   * @returns the new instance (already handed to dispatch).
   */
  async triggerNow(def: JobDefinition, params?: Record<string, unknown>): Promise<JobInstance> {
    const now = this.clock.now();
    const row = this.newInstance(def, now, TriggerSource.MANUAL, now, params);
    const { instance } = await this.instances.insertOrGet(row);
    await this.dispatch.dispatchIds([instance.id]);
    return instance;
  }

  /**
   * Backfill (issue 3): one BACKFILL instance per scheduled time in [fromMs, toMs], oldest first, under the
   * job's overlap policy, in one transaction. Times that already have a ledger row are left alone (the
   * unique key), so backfilling a range twice, or one that partly ran, creates only what is missing.
   * @throws ValidationError(`to`) when the range holds more than BACKFILL_MAX fires; (`triggerType`) for
   *   FIXED_DELAY, whose times depend on past run lengths.
   */
  async backfill(def: JobDefinition, fromMs: number, toMs: number): Promise<{ created: number; existing: number; fireTimes: number[] }> {
    const now = this.clock.now();
    const times = scheduledTimes(def, fromMs, toMs, now);
    const rows = times.map((t) => this.newInstance(def, t, TriggerSource.BACKFILL, now));
    const replaced: JobInstance[] = [];
    await this.jobs.transaction(async (em) => {
      const busy = await this.instances.unfinishedOfJobs(em, [def.id]);
      this.applyOverlap(def, rows, busy.get(def.id) ?? [], replaced);
      await this.instances.insertIgnore(em, rows);
    });
    for (const old of replaced) await this.cancels.cancel(old, 'OVERLAP_REPLACE: replaced by a backfilled fire');
    const stored = await this.instances.findByIds(rows.map((r) => r.id));
    await this.dispatch.dispatchRows(stored.filter((r) => r.status === JobInstanceStatus.PENDING));
    return { created: stored.length, existing: times.length - stored.length, fireTimes: times };
  }

  /**
   * One page of the fire ledger, in one transaction (DESIGN §5): INSERT IGNORE every planned instance
   * row, learn which ones this leader really wrote, then advance next_fire_time of the jobs it owns the
   * due fire of in one batched conditional UPDATE. A job whose due row someone else wrote (another
   * leader) or that planned no row (SKIP, schedule error) is advanced on its own, conditionally, so a row
   * made by backfill or a manual trigger at the same instant can never wedge the schedule.
   */
  private async firePage(due: JobDefinition[], now: number): Promise<{ created: number; next: Array<{ id: string; next: number }> }> {
    const replaced: JobInstance[] = [];
    const next: Array<{ id: string; next: number }> = [];
    const created: JobInstance[] = [];
    await this.jobs.transaction(async (em) => {
      const guarded = due.filter((d) => d.overlapPolicy !== OverlapPolicy.ALLOW).map((d) => d.id);
      const busy = await this.instances.unfinishedOfJobs(em, guarded);
      const firing = due.map((def) => {
        const plan = planFire(def, now, this.config.misfireThresholdMs);
        const fired = plan.fireTimes.map((t) => this.newInstance(def, t, plan.source, now));
        this.applyOverlap(def, fired, busy.get(def.id) ?? [], replaced);
        const skipped = plan.skippedTimes.map((t) => Object.assign(this.newInstance(def, t, plan.source, now), {
          status: JobInstanceStatus.CANCELLED, finishedAt: now, error: 'MISFIRE_SKIP: missed while no scheduler fired it; not run (misfire policy SKIP)',
        }));
        return { def, plan, fired: [...skipped, ...fired] };
      });
      const rows = firing.flatMap((f) => f.fired);
      await this.instances.insertIgnore(em, rows);
      const written = await this.instances.existingIds(em, rows.map((r) => r.id));
      const bulk: Array<{ id: string; expected: number; next: number | null; last: number }> = [];
      for (const { def, plan, fired } of firing) {
        const owned = fired.length > 0 && written.has(fired[0].id) && !plan.error;
        if (owned) bulk.push({ id: def.id, expected: def.nextFireTime as number, next: plan.nextFireTime, last: plan.fireTimes.at(-1) as number });
        else if (!(await this.advanceOne(em, def, plan, now))) continue;
        if (plan.nextFireTime !== null) next.push({ id: def.id, next: plan.nextFireTime });
        if (plan.misfired) this.metrics.misfires.inc({ policy: def.misfirePolicy });
        created.push(...fired.filter((r) => written.has(r.id)));
      }
      await this.jobs.advanceMany(em, bulk, now);
    });
    if (created.length === 0) return { created: 0, next };
    for (const old of replaced) await this.cancels.cancel(old, 'OVERLAP_REPLACE: replaced by a newer fire');
    const committed = this.clock.now(); // lateness counts until the row is durable, not until it was planned
    for (const r of created) this.metrics.triggerLatenessSeconds.observe(Math.max(0, committed - r.fireTime) / 1000);
    await this.dispatch.dispatchRows(created.filter((r) => r.status === JobInstanceStatus.PENDING));
    return { created: created.length, next };
  }

  /** The rare path: one conditional advance (records a schedule error when there is one). */
  private async advanceOne(em: Tx, def: JobDefinition, plan: FirePlan, now: number): Promise<boolean> {
    const advanced = await this.jobs.advance(em, def.id, def.nextFireTime as number, {
      nextFireTime: plan.nextFireTime,
      lastFireTime: plan.fireTimes.at(-1) ?? def.lastFireTime,
      updatedAt: now,
      ...(plan.error ? { scheduleState: ScheduleState.ERROR, scheduleError: plan.error.slice(0, 1000) } : {}),
    });
    if (advanced && plan.error) this.logger.error(`job ${def.code}: schedule stopped, next fire not computable: ${plan.error}`);
    return advanced;
  }

  /** Overlap policy for the new rows of one job; REPLACE victims already stored go to `replaced`. */
  private applyOverlap(def: JobDefinition, fired: JobInstance[], busy: JobInstance[], replaced: JobInstance[]): void {
    if (def.overlapPolicy === OverlapPolicy.ALLOW) return;
    const fresh = new Set(fired);
    for (const row of fired) {
      for (const victim of decideOverlap(def, busy, row).replace) {
        if (fresh.has(victim)) Object.assign(victim, { status: JobInstanceStatus.CANCELLED, finishedAt: row.createdAt, error: 'OVERLAP_REPLACE: replaced by a newer fire' });
        else replaced.push(victim);
      }
    }
    for (const row of fired) if (row.status === JobInstanceStatus.CANCELLED) row.finishedAt = row.createdAt;
  }

  private newInstance(def: JobDefinition, fireTime: number, source: TriggerSource, now: number, params?: Record<string, unknown>): JobInstance {
    return newJobInstance({
      namespace: def.namespace, appId: SCHEDULER_APP_ID, jobId: def.id, jobCode: def.code, handler: def.handler, fireTime,
      triggerSource: source, maxAttempts: def.retryMax + 1, retryBackoffMs: def.retryBackoffMs, retryBackoffKind: def.retryBackoffKind,
      timeoutMs: def.timeoutMs, routingStrategy: def.routingStrategy, routingKey: def.routingKey, params: params ?? def.params ?? {}, dueAt: now,
    }, now);
  }
}
