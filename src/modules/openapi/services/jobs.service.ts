import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock, newId, NotFoundError, ValidationError } from '../../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import {
  AuditLogRepository, BackoffKind, JobAttempt, JobAttemptRepository, JobDefinition, JobDefinitionRepository, JobInstance, JobInstanceRepository,
  MisfirePolicy, OverlapPolicy, RoutingStrategy, ScheduleState, TriggerType,
} from '../../metadata/index.js';
import { CancelService } from '../../dispatch/index.js';
import { computeNextFireTime, JobSignals, previewFireTimes, TriggerService, validateTrigger } from '../../trigger/index.js';
import { CreateJobDto, UpdateJobDto } from '../dto/job.dto.js';
import { HandlerCheckService } from './handler-check.service.js';
import { checkFanOut, checkFireParams, fanOutField, refuseCorruptFields } from './job-limits.js';

const SCHEDULE_FIELDS = ['triggerType', 'triggerExpr', 'timeZone'] as const;
/** Fields whose change can raise a job's instances per minute (JOB_MAX_INSTANCES_PER_MINUTE). */
const FAN_OUT_FIELDS = [...SCHEDULE_FIELDS, 'shardTotal', 'routingStrategy'] as const;
/** Fields a PATCH may clear with `null`; every other field keeps its value when omitted and refuses null. */
const NULLABLE_FIELDS: ReadonlySet<string> = new Set(['description', 'routingKey', 'shardParams']);

/**
 * Job definition management (DESIGN §8 `/api/jobs`): validated create/update (a bad cron expression or
 * zone is a 400 naming the field), delete, pause/resume, trigger-now, and a preview of the next fires.
 * Every change is written to the audit log with the caller's app id.
 */
@Injectable()
export class JobsService {
  constructor(
    private readonly jobs: JobDefinitionRepository,
    private readonly instances: JobInstanceRepository,
    private readonly attempts: JobAttemptRepository,
    private readonly audit: AuditLogRepository,
    private readonly trigger: TriggerService,
    private readonly handlers: HandlerCheckService,
    private readonly cancels: CancelService,
    private readonly signals: JobSignals,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** @throws ValidationError (bad schedule), ConflictError (code taken). */
  async create(appId: string, dto: CreateJobDto): Promise<JobDefinition> {
    if (dto.enabled !== false) await this.handlers.assertRunnable(dto.handler);
    const now = this.clock.now();
    const def = Object.assign(new JobDefinition(), {
      id: newId(), namespace: this.config.namespace, appId, code: dto.code, description: dto.description ?? null, handler: dto.handler,
      triggerType: dto.triggerType, triggerExpr: dto.triggerExpr.trim(), timeZone: dto.timeZone?.trim() || 'UTC', params: dto.params ?? {},
      routingStrategy: dto.routingStrategy ?? RoutingStrategy.ROUND_ROBIN, routingKey: dto.routingKey ?? null, shardTotal: dto.shardTotal ?? 1, shardParams: dto.shardParams ?? null,
      misfirePolicy: dto.misfirePolicy ?? MisfirePolicy.FIRE_ONCE_NOW, overlapPolicy: dto.overlapPolicy ?? OverlapPolicy.ALLOW, maxConcurrency: dto.maxConcurrency ?? 0,
      timeoutMs: dto.timeoutMs ?? 60_000, retryMax: dto.retryMax ?? 0, retryBackoffMs: dto.retryBackoffMs ?? 1000,
      retryBackoffKind: dto.retryBackoffKind ?? BackoffKind.FIXED, enabled: dto.enabled ?? true, scheduleState: ScheduleState.OK,
      scheduleError: null, nextFireTime: null as number | null, lastFireTime: null, version: 1, createdAt: now, updatedAt: now, createdBy: appId, updatedBy: appId,
    });
    validateDefinition(def);
    const first = this.firstFire(def, now); // validated whether or not the job starts enabled
    checkFireParams(def);
    checkFanOut(def, this.config.jobMaxInstancesPerMinute, fanOutField(def));
    this.handlers.checkJobParams(def);
    def.nextFireTime = def.enabled ? first : null;
    const saved = await this.jobs.create(def);
    await this.audit.append({ appId, action: 'JOB_CREATE', targetType: 'job', targetId: saved.id, after: saved }, now);
    await this.signals.jobChanged(saved.id);
    return saved;
  }

  /** Finds by id, or by code when no id matches. @throws NotFoundError */
  async get(idOrCode: string): Promise<JobDefinition> {
    const ns = this.config.namespace;
    const def = (await this.jobs.findById(ns, idOrCode)) ?? (await this.jobs.findByCode(ns, idOrCode));
    if (!def) throw new NotFoundError('job', idOrCode);
    return def;
  }

  list(offset: number, limit: number): Promise<[JobDefinition[], number]> {
    return this.jobs.list(this.config.namespace, offset, limit);
  }

  /**
   * Applies a partial update; a change to the schedule recomputes next_fire_time from now. Fires staged
   * ahead of their time from the old definition are written again from the new one.
   * @throws ValidationError for a bad schedule or a `null` in a field that cannot be cleared.
   */
  async update(appId: string, idOrCode: string, dto: UpdateJobDto): Promise<JobDefinition> {
    refuseNulls(dto);
    const before = await this.get(idOrCode);
    const now = this.clock.now();
    const patch: Partial<JobDefinition> = { ...dto, updatedAt: now, updatedBy: appId } as Partial<JobDefinition>;
    if (dto.triggerExpr !== undefined) patch.triggerExpr = dto.triggerExpr.trim();
    const merged = Object.assign(new JobDefinition(), before, patch);
    refuseCorruptFields(merged);
    validateDefinition(merged);
    checkFireParams(merged);
    if (merged.enabled && (dto.handler !== undefined || (dto.enabled && !before.enabled))) await this.handlers.assertRunnable(merged.handler);
    const scheduleChanged = SCHEDULE_FIELDS.some((f) => dto[f] !== undefined) || dto.enabled !== undefined;
    if (scheduleChanged) {
      const first = this.firstFire(merged, now);
      patch.nextFireTime = merged.enabled ? first : null;
      patch.scheduleState = ScheduleState.OK;
      patch.scheduleError = null;
    }
    this.checkPatchFanOut(merged, dto);
    if (dto.handler !== undefined || dto.params !== undefined || dto.shardParams !== undefined || dto.shardTotal !== undefined) this.handlers.checkJobParams(merged);
    const after = await this.jobs.editTransaction(async (em) => {
      const updated = await this.jobs.update(before, patch, em);
      // Staged fires were built from the old row (params, handler, schedule): remove them. Under an
      // unchanged schedule they are due again, so next_fire_time goes back to the earliest of them.
      const { earliest } = await this.trigger.unstage(em, before.id);
      if (!scheduleChanged && earliest !== null && updated.enabled) {
        await this.jobs.setNextFire(before.id, earliest, now, em);
        updated.nextFireTime = earliest;
      }
      return updated;
    });
    await this.audit.append({ appId, action: 'JOB_UPDATE', targetType: 'job', targetId: before.id, before, after }, now);
    await this.signals.jobChanged(before.id);
    return after;
  }

  async remove(appId: string, idOrCode: string): Promise<void> {
    const before = await this.get(idOrCode);
    await this.jobs.editTransaction(async (em) => {
      await this.jobs.delete(this.config.namespace, before.id, em);
      await this.trigger.unstage(em, before.id);
    });
    await this.audit.append({ appId, action: 'JOB_DELETE', targetType: 'job', targetId: before.id, before }, this.clock.now());
  }

  /**
   * Stops the schedule (no fire until resumed). Fires staged ahead of their time (TRIGGER_STAGE_LEAD_MS)
   * are removed; instances whose fire time has come run on.
   */
  async pause(appId: string, idOrCode: string): Promise<JobDefinition> {
    return this.setEnabled(appId, idOrCode, false, 'JOB_PAUSE');
  }

  /** Restarts the schedule from now (fires missed while paused are not made up). */
  async resume(appId: string, idOrCode: string): Promise<JobDefinition> {
    return this.setEnabled(appId, idOrCode, true, 'JOB_RESUME');
  }

  /**
   * Creates a MANUAL instance now, whether or not the job is paused, under the job's overlap policy.
   * @returns the instance; for a sharded job every shard of the fire, shard 0 first.
   */
  async triggerNow(appId: string, idOrCode: string, params?: Record<string, unknown>): Promise<JobInstance[]> {
    const def = await this.get(idOrCode);
    refuseCorruptFields(def, new Set(params ? ['params'] : []));
    checkFireParams(def, params);
    await this.handlers.assertRunnable(def.handler);
    this.handlers.checkJobParams(def, params);
    const shards = await this.trigger.triggerNow(def, params);
    await this.audit.append({ appId, action: 'JOB_TRIGGER', targetType: 'job', targetId: def.id, after: { instanceId: shards[0].id, shards: shards.length, params: params ?? null } }, this.clock.now());
    return shards;
  }

  /**
   * The next `n` fire times from now (ms), whatever `enabled` says; [] when the schedule cannot be computed.
   * A FIXED_RATE, FIXED_DELAY or ONE_SHOT job that has a next fire starts from it: its grid is anchored
   * at its first fire, not at the instant of this read (the preview was a few ms off the real fires).
   */
  preview(def: JobDefinition, n = 5): number[] {
    try {
      const now = this.clock.now();
      const anchor = def.triggerType !== TriggerType.CRON && def.nextFireTime !== null && def.nextFireTime >= now ? def.nextFireTime : null;
      if (anchor !== null && n > 0) return [anchor, ...previewFireTimes(def, anchor, n - 1)];
      return previewFireTimes(def, now, n);
    } catch {
      return [];
    }
  }

  /**
   * Creates the fires of [from, to] that have no ledger row yet, under the job's overlap policy.
   * @throws ValidationError (range too large or inverted, FIXED_DELAY job, stored params that cannot be read), NotFoundError.
   */
  async backfill(appId: string, idOrCode: string, fromMs: number, toMs: number): Promise<{ created: number; existing: number; fireTimes: number[] }> {
    const def = await this.get(idOrCode);
    refuseCorruptFields(def);
    await this.handlers.assertRunnable(def.handler);
    const out = await this.trigger.backfill(def, fromMs, toMs);
    await this.audit.append({ appId, action: 'JOB_BACKFILL', targetType: 'job', targetId: def.id, after: { from: fromMs, to: toMs, created: out.created } }, this.clock.now());
    return out;
  }

  /** Cancels one instance of the job (see CancelService). @throws NotFoundError */
  /**
   * One instance of the job, with its attempts (oldest first).
   * @throws NotFoundError for an unknown job, or an instance that is not this job's.
   */
  async instanceOf(idOrCode: string, instanceId: string): Promise<{ instance: JobInstance; attempts: JobAttempt[] }> {
    const instance = await this.ownInstance(idOrCode, instanceId);
    return { instance, attempts: await this.attempts.listForInstance(instance.id) };
  }

  /** @throws NotFoundError for an unknown job, or an instance that is not this job's. */
  private async ownInstance(idOrCode: string, instanceId: string): Promise<JobInstance> {
    const def = await this.get(idOrCode);
    const row = await this.instances.findById(instanceId);
    if (!row || row.jobId !== def.id) throw new NotFoundError('instance', instanceId);
    return row;
  }

  async cancelInstance(appId: string, idOrCode: string, instanceId: string): Promise<JobInstance> {
    const row = await this.ownInstance(idOrCode, instanceId);
    if (await this.cancels.cancel(row, `cancelled by ${appId}`)) {
      await this.audit.append({ appId, action: 'INSTANCE_CANCEL', targetType: 'job', targetId: row.jobId as string, after: { instanceId } }, this.clock.now());
    }
    return (await this.instances.findById(instanceId)) as JobInstance;
  }

  /** A page of the job's instances, newest fire first. @throws NotFoundError */
  async instancesOf(idOrCode: string, offset: number, limit: number): Promise<JobInstance[]> {
    return this.instances.listByJob((await this.get(idOrCode)).id, offset, limit);
  }

  /**
   * JOB_MAX_INSTANCES_PER_MINUTE for a PATCH, naming the field it changed (shardTotal, else the schedule). A
   * disabled job makes nothing: disabling one stored over the cap stays possible (resume checks it again).
   * @throws ValidationError naming `shardTotal` or `triggerExpr`.
   */
  private checkPatchFanOut(merged: JobDefinition, dto: UpdateJobDto): void {
    if (!merged.enabled && !FAN_OUT_FIELDS.some((f) => dto[f] !== undefined)) return;
    const field = dto.shardTotal !== undefined ? 'shardTotal' : SCHEDULE_FIELDS.some((f) => dto[f] !== undefined) ? 'triggerExpr' : fanOutField(merged);
    checkFanOut(merged, this.config.jobMaxInstancesPerMinute, field);
  }

  private async setEnabled(appId: string, idOrCode: string, enabled: boolean, action: string): Promise<JobDefinition> {
    const before = await this.get(idOrCode);
    const now = this.clock.now();
    if (before.enabled === enabled) return before;
    if (enabled) {
      refuseCorruptFields(before);
      checkFanOut(before, this.config.jobMaxInstancesPerMinute, fanOutField(before));
      await this.handlers.assertRunnable(before.handler);
    }
    const patch = { enabled, nextFireTime: enabled ? this.firstFire(before, now) : null, scheduleState: ScheduleState.OK, scheduleError: null, updatedAt: now, updatedBy: appId };
    const after = await this.jobs.editTransaction(async (em) => {
      const updated = await this.jobs.update(before, patch, em);
      await this.trigger.unstage(em, before.id);
      return updated;
    });
    await this.audit.append({ appId, action, targetType: 'job', targetId: before.id, before: { enabled: before.enabled }, after: { enabled } }, now);
    await this.signals.jobChanged(before.id);
    return after;
  }

  /** First fire from `now`; @throws ValidationError for a bad schedule or a one-shot in the past. */
  private firstFire(def: JobDefinition, now: number): number | null {
    validateTrigger(def);
    const next = computeNextFireTime(def, now);
    if (next === null && def.triggerType === TriggerType.ONE_SHOT) throw new ValidationError('triggerExpr', 'the ONE_SHOT instant is in the past');
    return next;
  }
}

/**
 * Cross-field rules (the DTO checks each field alone): more than one shard only with SHARDING_BROADCAST;
 * shardParams, when given, has exactly one object per shard; QUEUE overlap runs one at a time, so a
 * larger maxConcurrency would contradict it.
 * @throws ValidationError naming `shardTotal`, `shardParams` or `maxConcurrency`.
 */
function validateDefinition(def: JobDefinition): void {
  if (def.overlapPolicy === OverlapPolicy.QUEUE && def.maxConcurrency > 1) {
    throw new ValidationError('maxConcurrency', `overlapPolicy QUEUE runs one fire at a time; maxConcurrency ${def.maxConcurrency} contradicts it (use 0 or 1)`);
  }
  if (def.shardTotal > 1 && def.routingStrategy !== RoutingStrategy.SHARDING_BROADCAST) {
    throw new ValidationError('shardTotal', `shardTotal ${def.shardTotal} needs routingStrategy SHARDING_BROADCAST (got ${def.routingStrategy})`);
  }
  if (def.shardParams && def.shardParams.length !== def.shardTotal) {
    throw new ValidationError('shardParams', `shardParams has ${def.shardParams.length} entries; it needs exactly shardTotal (${def.shardTotal})`);
  }
}

/**
 * PATCH fields are optional, and class-validator's IsOptional lets `null` through as well as a missing
 * field; a null handler, expression or zone would reach the database (or `.trim()`) as a 500. Only the
 * nullable columns may be cleared with null.
 * @throws ValidationError naming the first such field.
 */
function refuseNulls(dto: UpdateJobDto): void {
  for (const [field, value] of Object.entries(dto)) {
    if (value === null && !NULLABLE_FIELDS.has(field)) {
      throw new ValidationError(field, `${field} cannot be null; omit it to keep the current value`);
    }
  }
}
