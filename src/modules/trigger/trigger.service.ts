import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock, newId } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { CancelService, DispatchService } from '../dispatch/index.js';
import {
  BackoffKind,
  JobDefinition,
  JobDefinitionRepository,
  JobInstance,
  JobInstanceRepository,
  JobInstanceStatus,
  OverlapPolicy,
  ScheduleState,
  TriggerSource,
} from '../metadata/index.js';
import { MetricsService } from '../observability/index.js';
import { planFire } from './fire-planner.js';
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
   * Fires every job due at or before now, page by page. Returns the number of instances created.
   * Stops after `maxPages` pages so one pass cannot hold the loop forever (FIRE_ALL catch-up).
   */
  async firePass(maxPages = 20): Promise<number> {
    let created = 0;
    for (let page = 0; page < maxPages; page++) {
      const now = this.clock.now();
      const due = await this.jobs.findDue(this.config.namespace, now, this.config.triggerBatchSize);
      if (due.length === 0) break;
      created += await this.firePage(due, now);
      if (due.length < this.config.triggerBatchSize) break;
    }
    return created;
  }

  /** Earliest next_fire_time of an enabled job (to sleep until it), or null. */
  earliestNextFire(): Promise<number | null> {
    return this.jobs.earliestNextFire(this.config.namespace);
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

  private async firePage(due: JobDefinition[], now: number): Promise<number> {
    const rows: JobInstance[] = [];
    const replaced: JobInstance[] = [];
    await this.jobs.transaction(async (em) => {
      const guarded = due.filter((d) => d.overlapPolicy !== OverlapPolicy.ALLOW).map((d) => d.id);
      const busy = await this.instances.unfinishedOfJobs(em, guarded);
      for (const def of due) {
        const plan = planFire(def, now, this.config.misfireThresholdMs);
        const advanced = await this.jobs.advance(em, def.id, def.nextFireTime as number, {
          nextFireTime: plan.nextFireTime,
          lastFireTime: plan.fireTimes.at(-1) ?? def.lastFireTime,
          updatedAt: now,
          ...(plan.error ? { scheduleState: ScheduleState.ERROR, scheduleError: plan.error.slice(0, 1000) } : {}),
        });
        if (!advanced) continue; // another leader fired this one
        if (plan.error) this.logger.error(`job ${def.code}: schedule stopped, next fire not computable: ${plan.error}`);
        if (plan.misfired) this.metrics.misfires.inc({ policy: def.misfirePolicy });
        const fired = plan.fireTimes.map((t) => this.newInstance(def, t, plan.source, now));
        this.applyOverlap(def, fired, busy.get(def.id) ?? [], replaced);
        rows.push(...fired);
      }
      await this.instances.insertIgnore(em, rows);
    });
    if (rows.length === 0) return 0;
    for (const old of replaced) await this.cancels.cancel(old, 'OVERLAP_REPLACE: replaced by a newer fire');
    const stored = await this.instances.findByIds(rows.map((r) => r.id));
    for (const r of stored) this.metrics.triggerLatenessSeconds.observe(Math.max(0, now - r.fireTime) / 1000);
    await this.dispatch.dispatchRows(stored.filter((r) => r.status === JobInstanceStatus.PENDING));
    return stored.length;
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
    const id = newId();
    return Object.assign(new JobInstance(), {
      id,
      namespace: def.namespace,
      appId: SCHEDULER_APP_ID,
      requestId: id,
      requestHash: null,
      jobId: def.id,
      jobCode: def.code,
      handler: def.handler,
      fireTime,
      shardIndex: 0,
      shardTotal: 1,
      triggerSource: source,
      status: JobInstanceStatus.PENDING,
      attempt: 1,
      maxAttempts: def.retryMax + 1,
      retryBackoffMs: def.retryBackoffMs,
      retryBackoffKind: def.retryBackoffKind ?? BackoffKind.FIXED,
      timeoutMs: def.timeoutMs,
      routingStrategy: def.routingStrategy,
      routingKey: def.routingKey,
      nodeId: null,
      leaseUntil: null,
      fencingToken: 0,
      params: params ?? def.params ?? {},
      result: null,
      error: null,
      traceId: id.replace(/-/g, ''),
      callbackUrl: null,
      callbackStatus: null,
      dueAt: now,
      createdAt: now,
      updatedAt: now,
      dispatchedAt: null,
      startedAt: null,
      finishedAt: null,
    });
  }
}
