import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock, ConflictError, NotFoundError, ValidationError } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import {
  ApiClientRepository,
  JobDefinition,
  JobDefinitionRepository,
  type JobListFilter,
  PausedReason,
  ScheduleState,
  TriggerType,
  type Tx,
  UnitOfWork,
} from '../metadata/index.js';
import {
  computeNextFireTime,
  JobChangeFires,
  JobSignals,
  previewFireTimes,
  validateTrigger,
} from '../trigger/index.js';
import { AuditAction, AuditService, jobSnapshot } from './audit/audit.service.js';
import { CallbackUrlCheck } from './callback-url-check.service.js';
import { type Caller, namedApp } from './caller.js';
import { HandlerCheckService } from './handler-check.service.js';
import { definitionOf, type JobPatch, type NewJob, takeMetricsSlot } from './job-input.js';
import { checkFanOut, checkFireParams, fanOutField, refuseCorruptFields } from './job-limits.js';
import { jobTarget, refuseNulls, validateDefinition } from './job-rules.js';

const SCHEDULE_FIELDS = ['triggerType', 'triggerExpr', 'timeZone'] as const;
/** An edit's DELETE of staged fires then locks no gaps. */
// A deadlock with a firing page or another edit rolls the unit back whole: it runs again instead of answering 500.
const READ_COMMITTED = { isolation: 'READ COMMITTED', lockRetries: 3 } as const;

/** Fields whose change can raise a job's instances per minute (JOB_MAX_INSTANCES_PER_MINUTE). */
const FAN_OUT_FIELDS = [...SCHEDULE_FIELDS, 'shardTotal', 'routingStrategy'] as const;

/** A job named in a request: its id or code, and the owner named with `?appId=` (admins: any app). */
export interface JobRef {
  idOrCode: string;
  appId?: string;
}

/** A validated change, ready to be written. `now` is when it was planned (ms UTC). */
export interface JobChange {
  patch: Partial<JobDefinition>;
  scheduleChanged: boolean;
  now: number;
  metrics?: boolean;
}

/**
 * Job definitions (docs/api.md, docs/tenancy.md): a job is its creating app's (another app gets NotFoundError;
 * an `admin` manages all of its namespace). A change commits with its audit row in one transaction, then signals
 * the scheduler (JobSignals).
 */
@Injectable()
export class JobsService {
  constructor(
    private readonly jobs: JobDefinitionRepository,
    private readonly clients: ApiClientRepository,
    private readonly audit: AuditService,
    private readonly fires: JobChangeFires,
    private readonly handlers: HandlerCheckService,
    private readonly callbackUrls: CallbackUrlCheck,
    private readonly signals: JobSignals,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  /**
   * @throws ValidationError (bad schedule, refused callbackUrl), ForbiddenError (shell), ConflictError (code taken,
   * job cap, `metrics` past JOB_METRICS_MAX).
   */
  async create(caller: Caller, input: NewJob): Promise<JobDefinition> {
    const def = await this.newDefinition(caller, input);
    const saved = await this.uow.run((em) => this.insertOwned(em, caller, def, input.metrics), READ_COMMITTED);
    await this.signals.jobChanged(saved.id);
    return saved;
  }

  /** The validated, unsaved job `input` describes, owned by `caller`'s app. @throws as {@link create}. */
  async newDefinition(caller: Caller, input: NewJob): Promise<JobDefinition> {
    this.handlers.assertMayUse(caller, input.handler);
    if (input.enabled !== false) await this.handlers.assertRunnable(input.handler, caller.appId);
    const now = this.clock.now();
    const def = definitionOf(input, this.config.namespace, caller.appId, now);
    validateDefinition(def, this.config.longTasks.maxRunTimeMs, input.timeoutMs);
    const first = this.firstFire(def, now); // validated whether or not the job starts enabled
    checkFireParams(def);
    checkFanOut(def, this.config.jobMaxInstancesPerMinute, fanOutField(def));
    this.handlers.checkJobParams(def);
    if (def.callbackUrl !== null) await this.callbackUrls.assert(def.appId, def.callbackUrl);
    def.nextFireTime = def.enabled ? first : null;
    return def;
  }

  /**
   * Inside `em`: checks the app's job cap under a lock of its client row (so the cap is exact), inserts `def` (with
   * a metrics slot when `metrics`) and its audit row. @throws ConflictError `maxJobs`, `code` or `metrics`.
   */
  async insertOwned(em: Tx, caller: Caller, def: JobDefinition, metrics = false): Promise<JobDefinition> {
    const client = await this.clients.lockForUpdate(em, def.appId);
    const cap = client?.maxJobs ?? this.config.caps.maxJobsPerApp;
    if (cap > 0) {
      const owned = await this.jobs.countOwned(em, def.namespace, def.appId);
      if (owned >= cap) {
        throw new ConflictError(
          `app '${def.appId}' owns ${owned} jobs in this namespace, its cap (the client's maxJobs, else ` +
            'MAX_JOBS_PER_APP): delete one, or ask an admin to raise it',
          'maxJobs',
        );
      }
    }
    const saved = metrics
      ? await this.withMetricsSlot(em, (metricsSlot) => this.jobs.create(Object.assign(def, { metricsSlot }), em))
      : await this.jobs.create(def, em);
    await this.audit.record(em, caller.appId, AuditAction.JOB_CREATE, jobTarget(saved), undefined, jobSnapshot(saved));
    return saved;
  }

  /**
   * The job `ref` names, as `caller` may see it: by id, else by code (an admin's own first, else the one app
   * that has it). @throws NotFoundError (also another app's job), ForbiddenError(admin) for a foreign `appId`,
   * ConflictError(`appId`) when several apps have the code and none was named.
   */
  async find(caller: Caller, ref: JobRef): Promise<JobDefinition> {
    const ns = this.config.namespace;
    const owner = namedApp(caller, ref.appId, true);
    const byId = await this.jobs.findById(ns, ref.idOrCode);
    if (byId && (owner === null || byId.appId === owner)) return byId;
    const own = await this.jobs.findByCode(ns, owner ?? caller.appId, ref.idOrCode);
    if (own) return own;
    if (owner === null) {
      const any = await this.jobs.findByCodeAnyApp(ns, ref.idOrCode, 2);
      if (any.length === 1) return any[0];
      if (any.length > 1) {
        const why = `several apps have a job '${ref.idOrCode}': name it by id, or add ?appId=<owner>`;
        throw new ConflictError(why, 'appId');
      }
    }
    throw new NotFoundError('job', ref.idOrCode);
  }

  /** A page of the jobs `caller` may see (its own; an admin's, all or `appId`'s) by code, kept by `filter`. */
  list(
    caller: Caller,
    appId: string | undefined,
    offset: number,
    limit: number,
    filter: JobListFilter = {},
  ): Promise<[JobDefinition[], number]> {
    return this.jobs.list(this.config.namespace, namedApp(caller, appId, true), offset, limit, filter);
  }

  /** Partial update: staged fires rebuilt, a new schedule fires from now. @throws ValidationError, NotFoundError */
  async update(caller: Caller, ref: JobRef, fields: JobPatch): Promise<JobDefinition> {
    refuseNulls(fields);
    const before = await this.find(caller, ref);
    const change = await this.planUpdate(caller, before, fields);
    const after = await this.uow.run((em) => this.applyUpdate(em, caller, before, change), READ_COMMITTED);
    await this.signals.jobChanged(before.id);
    if (after.enabled && !before.enabled) await this.fires.release(before.id);
    return after;
  }

  /** Validates `fields` over `before`. @throws ValidationError, ForbiddenError (a shell job without `shell`). */
  async planUpdate(caller: Caller, before: JobDefinition, input: JobPatch): Promise<JobChange> {
    const now = this.clock.now();
    const { metrics, ...fields } = input;
    const patch = { ...fields, updatedAt: now, updatedBy: caller.appId } as Partial<JobDefinition>;
    if (fields.triggerExpr !== undefined) patch.triggerExpr = fields.triggerExpr.trim();
    const merged = Object.assign(new JobDefinition(), before, patch);
    this.handlers.assertMayUse(caller, merged.handler);
    refuseCorruptFields(merged);
    validateDefinition(merged, this.config.longTasks.maxRunTimeMs, fields.timeoutMs);
    checkFireParams(merged);
    // A user's choice: the system's reason (and its pause time) is gone.
    if (fields.enabled !== undefined) Object.assign(patch, { pausedReason: null, pausedAt: null });
    if (fields.enabled && !before.enabled) await this.refuseWhileClientDisabled(before);
    const startsRunning = fields.handler !== undefined || (fields.enabled && !before.enabled);
    if (merged.enabled && startsRunning) await this.handlers.assertRunnable(merged.handler, merged.appId);
    const scheduleChanged = SCHEDULE_FIELDS.some((f) => fields[f] !== undefined) || fields.enabled !== undefined;
    // A new schedule makes a completed ONE_SHOT a job that may fire again.
    if (SCHEDULE_FIELDS.some((f) => fields[f] !== undefined)) patch.completedAt = null;
    if (scheduleChanged) {
      const first = this.firstFire(merged, now);
      patch.nextFireTime = merged.enabled ? first : null;
      patch.scheduleState = ScheduleState.OK;
      patch.scheduleError = null;
    }
    this.checkPatchFanOut(merged, fields);
    const { handler, params, shardParams, shardTotal } = fields;
    if ([handler, params, shardParams, shardTotal].some((v) => v !== undefined)) this.handlers.checkJobParams(merged);
    if (typeof fields.callbackUrl === 'string') await this.callbackUrls.assert(before.appId, fields.callbackUrl);
    return { patch, scheduleChanged, now, metrics };
  }

  /** Writes a planned change and its audit row inside `em`. @throws ConflictError (changed, code taken, metrics). */
  async applyUpdate(em: Tx, caller: Caller, before: JobDefinition, change: JobChange): Promise<JobDefinition> {
    const { metrics, patch } = change;
    const updated =
      metrics === true && (before.metricsSlot ?? null) === null
        ? await this.withMetricsSlot(em, (metricsSlot) => this.jobs.update(before, { ...patch, metricsSlot }, em))
        : await this.jobs.update(before, metrics === false ? { ...patch, metricsSlot: null } : patch, em);
    // Staged fires were built from the old row; under an unchanged schedule next_fire_time returns to the earliest.
    const { earliest, lastFireTime } = await this.fires.unstage(em, before.id);
    if (lastFireTime !== undefined) updated.lastFireTime = lastFireTime;
    if (updated.enabled && !before.enabled) await this.fires.onResume(em, updated, change.now, updated.nextFireTime);
    if (!change.scheduleChanged && earliest !== null && updated.enabled) {
      await this.jobs.setNextFire(before.id, earliest, change.now, em);
      updated.nextFireTime = earliest;
    }
    const target = jobTarget(before);
    await this.audit.record(
      em,
      caller.appId,
      AuditAction.JOB_UPDATE,
      target,
      jobSnapshot(before),
      jobSnapshot(updated),
    );
    return updated;
  }

  /** Deletes the job (its instances stay as history). @throws NotFoundError */
  async remove(caller: Caller, ref: JobRef): Promise<void> {
    const before = await this.find(caller, ref);
    await this.uow.run(async (em) => {
      await this.jobs.delete(this.config.namespace, before.id, em);
      await this.fires.unstage(em, before.id);
      await this.audit.record(em, caller.appId, AuditAction.JOB_DELETE, jobTarget(before), jobSnapshot(before));
    }, READ_COMMITTED);
  }

  /** Stops the schedule: staged fires are removed; fires released run on, queued ones wait for the resume. */
  async pause(caller: Caller, ref: JobRef): Promise<JobDefinition> {
    return this.setEnabled(caller, ref, false, AuditAction.JOB_PAUSE);
  }

  /** Restarts the schedule from now (missed fires not made up); late queued fires go to the misfire policy. */
  async resume(caller: Caller, ref: JobRef): Promise<JobDefinition> {
    return this.setEnabled(caller, ref, true, AuditAction.JOB_RESUME);
  }

  /**
   * The next `n` fire times (ms UTC), paused or not; [] when the schedule cannot be computed. A non-CRON job
   * with a next fire starts from it (its grid is anchored at its first fire, not at this read).
   */
  preview(def: JobDefinition, n = 5): number[] {
    try {
      const now = this.clock.now();
      const next = def.nextFireTime;
      const anchor = def.triggerType !== TriggerType.CRON && next !== null && next >= now ? next : null;
      if (anchor !== null && n > 0) return [anchor, ...previewFireTimes(def, anchor, n - 1)];
      return previewFireTimes(def, now, n);
    } catch {
      return [];
    }
  }

  private async setEnabled(caller: Caller, ref: JobRef, enabled: boolean, action: AuditAction): Promise<JobDefinition> {
    const before = await this.find(caller, ref);
    const now = this.clock.now();
    if (before.enabled === enabled && (enabled || before.pausedReason == null)) return before;
    if (enabled) await this.refuseWhileClientDisabled(before);
    if (enabled && (before.completedAt ?? null) !== null)
      throw new ConflictError(
        `job ${before.code} is a ONE_SHOT that made its fire (completed ` +
          `${new Date(before.completedAt as number).toISOString()}); PATCH a new triggerExpr to fire it again`,
        'enabled',
      );
    if (enabled && !before.enabled) {
      this.handlers.assertMayUse(caller, before.handler);
      refuseCorruptFields(before);
      checkFanOut(before, this.config.jobMaxInstancesPerMinute, fanOutField(before));
      await this.handlers.assertRunnable(before.handler, before.appId);
    }
    const patch = {
      enabled,
      // A user's pause of a job the system paused makes it the user's: enabling the client leaves it paused.
      pausedReason: null,
      pausedAt: null,
      nextFireTime: enabled ? this.firstFire(before, now) : null,
      scheduleState: ScheduleState.OK,
      scheduleError: null,
      updatedAt: now,
      updatedBy: caller.appId,
    };
    const after = await this.uow.run(async (em) => {
      const updated = await this.jobs.update(before, patch, em);
      const { lastFireTime } = await this.fires.unstage(em, before.id);
      if (lastFireTime !== undefined) updated.lastFireTime = lastFireTime;
      if (enabled) await this.fires.onResume(em, updated, now, patch.nextFireTime);
      const was = { enabled: before.enabled, pausedReason: before.pausedReason ?? null };
      await this.audit.record(em, caller.appId, action, jobTarget(before), was, { enabled, pausedReason: null });
      return updated;
    }, READ_COMMITTED);
    await this.signals.jobChanged(before.id);
    if (enabled) await this.fires.release(before.id);
    return after;
  }

  /** A CLIENT_DISABLED job resumes with its client, not before (docs/tenancy.md). @throws ConflictError `enabled` */
  private async refuseWhileClientDisabled(def: JobDefinition): Promise<void> {
    if (def.pausedReason !== PausedReason.CLIENT_DISABLED) return;
    if ((await this.clients.findByAppId(def.appId))?.enabled === false)
      throw new ConflictError(
        `job ${def.code} was paused because the client of its app '${def.appId}' is disabled: it resumes by ` +
          'itself when an admin enables the client (PATCH /api/clients/{appId} {"enabled":true})',
        'enabled',
      );
  }

  /**
   * JOB_MAX_INSTANCES_PER_MINUTE for a change, naming the field changed; a disabled job makes nothing (resume
   * checks it again). @throws ValidationError naming `shardTotal` or `triggerExpr`.
   */
  private checkPatchFanOut(merged: JobDefinition, fields: JobPatch): void {
    if (!merged.enabled && !FAN_OUT_FIELDS.some((f) => fields[f] !== undefined)) return;
    const scheduleChanged = SCHEDULE_FIELDS.some((f) => fields[f] !== undefined);
    const field =
      fields.shardTotal !== undefined ? 'shardTotal' : scheduleChanged ? 'triggerExpr' : fanOutField(merged);
    checkFanOut(merged, this.config.jobMaxInstancesPerMinute, field);
  }

  /** `write` with a free per-job metrics slot of the namespace (JOB_METRICS_MAX), taken inside `em`. */
  private withMetricsSlot(em: Tx, write: (slot: number) => Promise<JobDefinition>): Promise<JobDefinition> {
    const ns = this.config.namespace;
    return takeMetricsSlot(() => this.jobs.metricsSlotsInUse(em, ns), this.config.jobMetricsMax, write);
  }

  /** First fire from `now`; @throws ValidationError for a bad schedule or a one-shot in the past. */
  private firstFire(def: JobDefinition, now: number): number | null {
    validateTrigger(def);
    const next = computeNextFireTime(def, now);
    if (next === null && def.triggerType === TriggerType.ONE_SHOT) {
      throw new ValidationError('triggerExpr', 'the ONE_SHOT instant is in the past');
    }
    return next;
  }
}
