import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock, ConflictError } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { CancelService, DispatchService, type StagedFire } from '../dispatch/index.js';
import {
  BackoffKind,
  CORRUPT_ROW,
  type DueRef,
  JobDefinition,
  JobDefinitionRepository,
  JobInstance,
  JobInstanceRepository,
  JobInstanceStatus,
  newJobInstance,
  OverlapPolicy,
  OWNERLESS_APP_ID,
  ScheduleState,
  TriggerSource,
  type Tx,
} from '../metadata/index.js';
import { MetricsService } from '../observability/index.js';
import { FirePlan, planFire } from './fire-planner.js';
import { scheduledTimes } from './backfill.js';
import { decideOverlap } from './overlap.js';

/**
 * The app id recorded on the fires of a job that has no owner (a row from before jobs had one). A job's
 * fires carry its owner's app id (issue 9); API tasks carry the caller's.
 */
export const SCHEDULER_APP_ID = OWNERLESS_APP_ID;

/** Work done inside the transaction that writes extra fires (trigger-now, backfill), e.g. their audit row. */
export type InFireTransaction = (em: Tx, rows: JobInstance[]) => Promise<void>;

/**
 * What the caller of an extra fire (trigger-now, backfill) runs with its planned rows: `admit` before anything is
 * written (its throw writes nothing: e.g. the owner's cap on unfinished work), `inTx` inside the transaction
 * that writes them, after them (e.g. their audit row; its failure writes nothing).
 */
export interface ExtraFireHooks {
  admit?: (rows: JobInstance[]) => Promise<void>;
  inTx?: InFireTransaction;
}

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
   * page scan of (id, next_fire_time), the fire ledger, then the release of the new ids. Returns the
   * number of instances created. Used to fire on demand (tests force two schedulers to fire at once).
   */
  async firePass(): Promise<number> {
    const refs = await this.jobs.findDueRefs(this.config.namespace, this.clock.now(), this.config.triggerBatchSize);
    const fired = await this.fireRefs(refs);
    await this.release(fired.staged);
    return fired.created;
  }

  /**
   * Writes the fire ledger for the given (job, expected next_fire_time) pairs, in pages of
   * TRIGGER_BATCH_SIZE. A job whose row changed since it was loaded (paused, edited, fired by another
   * leader) is skipped. The pairs may be due now or, when staged, up to TRIGGER_STAGE_LEAD_MS ahead.
   * Nothing is released here: `staged` lists the new PENDING/DISPATCHED rows, and the caller hands
   * them to {@link release} at their fire time.
   * @returns instances created, each advanced job's new next fire (for the wheel), and the staged fires.
   */
  async fireRefs(refs: Array<{ id: string; next: number }>): Promise<{ created: number; next: DueRef[]; staged: StagedFire[] }> {
    const out = { created: 0, next: [] as DueRef[], staged: [] as StagedFire[] };
    for (let i = 0; i < refs.length; i += this.config.triggerBatchSize) {
      const fired = await this.firePage(refs.slice(i, i + this.config.triggerBatchSize), this.clock.now());
      out.created += fired.created;
      out.next.push(...fired.next);
      out.staged.push(...fired.staged);
    }
    return out;
  }

  /**
   * Releases staged fires at their fire time: pushes the ids to their executors (DispatchService.release)
   * and records the trigger lateness (release done minus scheduled fire time) for each.
   */
  async release(fires: StagedFire[]): Promise<void> {
    if (fires.length === 0) return;
    await this.dispatch.deliver(fires);
    const released = this.clock.now();
    for (const f of fires) this.metrics.triggerLatenessSeconds.observe(Math.max(0, released - f.fireTime) / 1000);
  }

  /**
   * Removes the staged fires of a job that is being paused, edited or deleted, inside the transaction
   * `em` that changes its row. Call it **after** that row's UPDATE/DELETE: the write takes the row lock
   * a firing page takes first (`lockForFiring`), so a page and an edit of one job never interleave.
   * Fires whose time is past are left alone (they may already run). A caller that keeps the schedule
   * must set next_fire_time back to `earliest`, or those fires would be lost.
   * @returns how many staged fires were removed and the earliest of their fire times (null when none).
   */
  unstage(em: Tx, jobId: string): Promise<{ removed: number; earliest: number | null }> {
    return this.instances.deleteStaged(em, jobId, this.clock.now());
  }

  /**
   * Creates a MANUAL instance of `def` now (trigger-now) under the job's overlap policy; `params`
   * override the job's when given.
   * @returns the new instance — every shard of the fire for a sharded job, shard 0 first (PENDING ones
   *   already handed to dispatch; SKIP makes them CANCELLED, QUEUE WAITING).
   * @param hooks run before the rows are written, and inside their transaction (see {@link ExtraFireHooks}).
   * @throws ConflictError when the job already has a row for this very millisecond (retry); what `hooks` throw.
   */
  async triggerNow(def: JobDefinition, params?: Record<string, unknown>, hooks: ExtraFireHooks = {}): Promise<JobInstance[]> {
    const now = this.clock.now();
    const rows = this.newFire(def, now, TriggerSource.MANUAL, now, params);
    const byId = new Map((await this.insertUnderOverlap(def, rows, 'a manual trigger', hooks)).map((r) => [r.id, r]));
    const shards = rows.map((r) => byId.get(r.id)).filter((r): r is JobInstance => r !== undefined);
    if (shards.length < rows.length) throw new ConflictError(`job ${def.code} already has an instance for ${new Date(now).toISOString()}; trigger again`);
    return shards;
  }

  /**
   * Backfill (issue 3): one BACKFILL instance per scheduled time in [fromMs, toMs], oldest first, under the
   * job's overlap policy, in one transaction. Times that already have a ledger row are left alone (the
   * unique key), so backfilling a range twice, or one that partly ran, creates only what is missing.
   * @throws ValidationError(`to`) when the range holds more than BACKFILL_MAX fires or MAX_BACKFILL_INSTANCES instances; (`triggerType`) for
   *   FIXED_DELAY, whose times depend on past run lengths; what `hooks` throw.
   * @param hooks run before the rows are written (every planned row, those of times that already ran too), and
   *   inside their transaction (see {@link ExtraFireHooks}).
   */
  async backfill(def: JobDefinition, fromMs: number, toMs: number, hooks: ExtraFireHooks = {}): Promise<{ created: number; existing: number; fireTimes: number[] }> {
    const now = this.clock.now();
    const times = scheduledTimes(def, fromMs, toMs, now);
    const stored = await this.insertUnderOverlap(def, times.flatMap((t) => this.newFire(def, t, TriggerSource.BACKFILL, now)), 'a backfilled fire', hooks);
    const filled = new Set(stored.map((r) => r.fireTime)).size;
    return { created: filled, existing: times.length - filled, fireTimes: times };
  }

  /**
   * Writes extra fires of one job (manual, backfill) in one transaction under its overlap policy, then
   * cancels REPLACE victims and dispatches the PENDING rows. Rows whose (job, fire time) already exists
   * are skipped; `hooks.admit` runs first, `hooks.inTx` in that transaction after the insert. @returns the rows
   * written, as stored.
   */
  private async insertUnderOverlap(def: JobDefinition, rows: JobInstance[], what: string, { admit, inTx }: ExtraFireHooks): Promise<JobInstance[]> {
    const replaced: JobInstance[] = [];
    if (admit) await admit(rows);
    await this.jobs.transaction(async (em) => {
      const busy = await this.instances.unfinishedOfJobs(em, [def.id], this.clock.now());
      this.applyOverlap(def, rows, busy.get(def.id) ?? [], replaced);
      await this.instances.insertIgnore(em, rows);
      if (inTx) await inTx(em, rows);
    });
    for (const old of replaced) await this.cancels.cancel(old, `OVERLAP_REPLACE: replaced by ${what}`);
    const stored = await this.instances.findByIds(rows.map((r) => r.id));
    await this.dispatch.dispatchRows(stored.filter((r) => r.status === JobInstanceStatus.PENDING));
    return stored;
  }

  /**
   * One page of the fire ledger, in one transaction (DESIGN §5): lock and re-read the page's jobs, keep
   * those still enabled at the expected next_fire_time, INSERT IGNORE every planned instance row (routed
   * beforehand, see DispatchService.preRoute), learn which ones this leader really wrote, then advance
   * next_fire_time of the jobs it owns the due fire of in one batched conditional UPDATE. A job whose due
   * row someone else wrote (another leader) or that planned no row (SKIP, schedule error) is advanced on
   * its own, conditionally, so a row made by backfill or a manual trigger at the same instant can never
   * wedge the schedule. `now` may precede the fire times (staging): rows are then due at their fire time.
   */
  private async firePage(page: Array<{ id: string; next: number }>, now: number): Promise<{ created: number; next: DueRef[]; staged: StagedFire[] }> {
    const replaced: JobInstance[] = [];
    const next: DueRef[] = [];
    const created: JobInstance[] = [];
    await this.jobs.transaction(async (em) => {
      const expected = new Map(page.map((r) => [r.id, r.next]));
      const locked = (await this.jobs.lockForFiring(em, this.config.namespace, [...expected.keys()]))
        .filter((d) => d.enabled && d.nextFireTime === expected.get(d.id));
      // Decided on the locked row: a job that may not be staged (edited since it was loaded, say, to
      // QUEUE) is never written before its time; it goes back to the wheel for its fire time.
      for (const d of locked) if (!stageable(d) && (d.nextFireTime as number) > now) next.push({ id: d.id, next: d.nextFireTime as number, stage: false });
      const due = locked
        .filter((d) => stageable(d) || (d.nextFireTime as number) <= now)
        .sort((a, b) => (a.nextFireTime as number) - (b.nextFireTime as number));
      if (due.length === 0) return;
      const guarded = due.filter((d) => d.overlapPolicy !== OverlapPolicy.ALLOW).map((d) => d.id);
      const busy = await this.instances.unfinishedOfJobs(em, guarded, now);
      const firing = due.map((def) => {
        const plan = planFire(def, now, this.config.misfireThresholdMs);
        const fired = plan.fireTimes.flatMap((t) => this.newFire(def, t, plan.source, now, undefined, Math.max(t, now)));
        this.applyOverlap(def, fired, busy.get(def.id) ?? [], replaced);
        const skipped = plan.skippedTimes.flatMap((t) => this.newFire(def, t, plan.source, now)).map((r) => Object.assign(r, {
          status: JobInstanceStatus.CANCELLED, finishedAt: now, error: 'MISFIRE_SKIP: missed while no scheduler fired it; not run (misfire policy SKIP)',
        }));
        return { def, plan, fired: [...skipped, ...fired] };
      });
      const rows = firing.flatMap((f) => f.fired);
      await this.dispatch.preRoute(rows);
      const inserted = await this.instances.insertIgnore(em, rows);
      // All written (the usual page): skip asking which; otherwise another leader wrote some of these fires.
      const written = inserted === rows.length ? new Set(rows.map((r) => r.id)) : await this.instances.existingIds(em, rows.map((r) => r.id));
      const bulk: Array<{ id: string; expected: number; next: number | null; last: number }> = [];
      for (const { def, plan, fired } of firing) {
        const owned = fired.length > 0 && written.has(fired[0].id) && !plan.error;
        if (owned) bulk.push({ id: def.id, expected: def.nextFireTime as number, next: plan.nextFireTime, last: plan.fireTimes.at(-1) as number });
        else if (!(await this.advanceOne(em, def, plan, now))) continue;
        if (plan.nextFireTime !== null) next.push({ id: def.id, next: plan.nextFireTime, stage: stageable(def) });
        if (plan.misfired) this.metrics.misfires.inc({ policy: def.misfirePolicy });
        created.push(...fired.filter((r) => written.has(r.id)));
      }
      await this.jobs.advanceMany(em, bulk, now);
    });
    for (const old of replaced) await this.cancels.cancel(old, 'OVERLAP_REPLACE: replaced by a newer fire');
    const staged = created
      .filter((r) => r.status === JobInstanceStatus.PENDING || r.status === JobInstanceStatus.DISPATCHED)
      .map((r) => ({ id: r.id, appId: r.appId, fireTime: r.fireTime, nodeId: r.nodeId }));
    return { created: created.length, next, staged };
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
    if (advanced && plan.error?.startsWith(CORRUPT_ROW)) this.metrics.rowsQuarantined.inc({ reason: CORRUPT_ROW });
    return advanced;
  }

  /**
   * Overlap policy for the new rows of one job, decided once per fire (the shards of one fire share the
   * decision and never count as each other's predecessor); REPLACE victims already stored go to `replaced`.
   */
  private applyOverlap(def: JobDefinition, fired: JobInstance[], busy: JobInstance[], replaced: JobInstance[]): void {
    if (def.overlapPolicy === OverlapPolicy.ALLOW) return;
    const fresh = new Set(fired);
    for (const shards of groupByFire(fired)) {
      const [first, ...rest] = shards;
      for (const victim of decideOverlap(def, busy, first).replace) {
        if (fresh.has(victim)) Object.assign(victim, { status: JobInstanceStatus.CANCELLED, finishedAt: first.createdAt, error: 'OVERLAP_REPLACE: replaced by a newer fire' });
        else replaced.push(victim);
      }
      for (const r of rest) Object.assign(r, { status: first.status, error: first.error });
    }
    for (const row of fired) if (row.status === JobInstanceStatus.CANCELLED) row.finishedAt = row.createdAt;
  }

  /**
   * The rows of one fire of `def`: one per shard (shardTotal, DESIGN §6 SHARDING_BROADCAST), each with its
   * shard's params merged over the job's (or over `params`, a trigger-now's own), created at `now`, due at
   * `dueAt`, under the job's owner (its app id). The routing key is the value of the params field the job
   * names in `routingKey`.
   */
  private newFire(def: JobDefinition, fireTime: number, source: TriggerSource, now: number, params?: Record<string, unknown>, dueAt = now): JobInstance[] {
    const base = params ?? def.params ?? {};
    const total = Math.max(1, def.shardTotal ?? 1);
    return Array.from({ length: total }, (_, shardIndex) => {
      const own = { ...base, ...((def.shardParams?.[shardIndex] as Record<string, unknown> | undefined) ?? {}) };
      const key = def.routingKey ? own[def.routingKey] : undefined;
      return newJobInstance({
        namespace: def.namespace, appId: def.appId || SCHEDULER_APP_ID, jobId: def.id, jobCode: def.code, handler: def.handler, fireTime, shardIndex, shardTotal: total,
        triggerSource: source, maxAttempts: def.retryMax + 1, retryBackoffMs: def.retryBackoffMs, retryBackoffKind: def.retryBackoffKind,
        timeoutMs: def.timeoutMs, maxConcurrency: def.maxConcurrency ?? 0, routingStrategy: def.routingStrategy, routingKey: key === undefined || key === null ? null : String(key).slice(0, 255),
        params: own, dueAt,
      }, now);
    });
  }
}

/**
 * Whether a job's fires may be written ahead of their time (staging): only when no decision depends on
 * what runs at the fire time — overlap ALLOW and no maxConcurrency. Same rule as findDueRefs' `stage`.
 */
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
