import { Inject, Injectable } from '@nestjs/common';
import { NotFoundError, type TraceContext } from '../../common/index.js';
import { CancelService } from '../dispatch/index.js';
import {
  JobAttempt,
  JobAttemptRepository,
  JobDefinition,
  JobInstance,
  InstanceReads,
  JobInstanceStatus,
} from '../metadata/index.js';
import { TriggerService } from '../trigger/index.js';
import { APP_LIMITS, type AppLimitsLookup } from './app-limits.js';
import { type Caller } from './caller.js';
import { AuditAction, AuditService } from './audit/audit.service.js';
import { HandlerCheckService } from './handler-check.service.js';
import { checkFireParams, refuseCorruptFields } from './job-limits.js';
import { jobTarget } from './job-rules.js';
import { type JobRef, JobsService } from './jobs.service.js';
import { redactSecrets } from './audit/redact.js';
import { TaskCapService } from './task-cap.service.js';

/**
 * The runs of a job (docs/api.md): trigger-now, backfill, and its instances (list, read, cancel), for the jobs
 * {@link JobsService.find} lets the caller see. Each run or cancel commits with its audit row. A trigger-now
 * or backfill is first admitted by the job owner's cap on unfinished work (TaskCapService), like a batch.
 */
@Injectable()
export class JobRunsService {
  constructor(
    private readonly jobs: JobsService,
    private readonly instances: InstanceReads,
    private readonly attempts: JobAttemptRepository,
    private readonly audit: AuditService,
    private readonly trigger: TriggerService,
    private readonly handlers: HandlerCheckService,
    private readonly cancels: CancelService,
    private readonly caps: TaskCapService,
    @Inject(APP_LIMITS) private readonly apps: AppLimitsLookup,
  ) {}

  /**
   * A MANUAL fire now, paused or not, under the overlap policy and the owner's app id, with `params` (when
   * given) instead of the job's, and `priority` (when given) instead of the job's. @returns every shard of the
   * fire, shard 0 first. @throws NotFoundError, ForbiddenError, ValidationError, TooManyUnfinishedError (nothing
   * written).
   */
  async triggerNow(
    caller: Caller,
    ref: JobRef,
    params?: Record<string, unknown>,
    priority?: number,
    parent: TraceContext | null = null,
  ): Promise<JobInstance[]> {
    const found = await this.jobs.find(caller, ref);
    const def = priority === undefined ? found : Object.assign(new JobDefinition(), found, { priority });
    this.handlers.assertMayUse(caller, def.handler);
    refuseCorruptFields(def, new Set(params ? ['params'] : []));
    checkFireParams(def, params);
    await this.handlers.assertRunnable(def.handler, def.appId);
    this.handlers.checkJobParams(def, params);
    return this.trigger.triggerNow(def, params, parent, {
      admit: this.ownersCap(caller, def),
      inTx: (em, rows) =>
        this.audit.record(em, caller.appId, AuditAction.JOB_TRIGGER, jobTarget(def), undefined, {
          instanceId: rows[0].id,
          shards: rows.length,
          params: params === undefined ? null : redactSecrets(params),
          ...(priority === undefined ? {} : { priority }),
        }),
    });
  }

  /**
   * Creates the fires of [from, to] (ms) that have no ledger row yet, under the job's overlap policy; with `dryRun`,
   * the same checks and figures, nothing written (no instance, no audit row, nothing counted against the cap).
   * @throws ValidationError (range, FIXED_DELAY, unreadable params), NotFoundError, ForbiddenError,
   *   TooManyUnfinishedError (every planned fire counts; nothing written).
   */
  async backfill(
    caller: Caller,
    ref: JobRef,
    fromMs: number,
    toMs: number,
    dryRun = false,
  ): Promise<{ created: number; existing: number; fireTimes: number[] }> {
    const def = await this.jobs.find(caller, ref);
    this.handlers.assertMayUse(caller, def.handler);
    refuseCorruptFields(def);
    await this.handlers.assertRunnable(def.handler, def.appId);
    if (dryRun) return this.trigger.backfillPlan(def, fromMs, toMs, this.ownersCap(caller, def, true));
    return this.trigger.backfill(def, fromMs, toMs, {
      admit: this.ownersCap(caller, def),
      inTx: (em, rows) =>
        this.audit.record(em, caller.appId, AuditAction.JOB_BACKFILL, jobTarget(def), undefined, {
          from: new Date(fromMs).toISOString(),
          to: new Date(toMs).toISOString(),
          fires: new Set(rows.map((r) => r.fireTime)).size,
        }),
    });
  }

  /**
   * Admits fires of `def` by the cap of the app the rows carry, with its client's maxUnfinishedTasks: the
   * caller's own when it owns the job, else through {@link APP_LIMITS}. `checkOnly`: a dry run's, counting nothing.
   */
  private ownersCap(caller: Caller, def: JobDefinition, checkOnly = false): (rows: JobInstance[]) => Promise<void> {
    return async (rows) => {
      if (rows.length === 0) return;
      const cap =
        def.appId === caller.appId
          ? caller.maxUnfinishedTasks
          : ((await this.apps.lookup(def.appId))?.maxUnfinishedTasks ?? null);
      const app = { appId: rows[0].appId, maxUnfinishedTasks: cap };
      if (checkOnly) await this.caps.check(app, rows.length, 'fire instance');
      else await this.caps.admit(app, rows.length, 'fire instance');
    };
  }

  /** One instance of the job, with its attempts (oldest first). @throws NotFoundError */
  async instanceOf(
    caller: Caller,
    ref: JobRef,
    instanceId: string,
  ): Promise<{ instance: JobInstance; attempts: JobAttempt[] }> {
    const instance = await this.ownInstance(caller, ref, instanceId);
    return { instance, attempts: await this.attempts.listForInstance(instance.id) };
  }

  /** A page of the job's instances, newest fire first (keyset: after `after`), and the total. @throws NotFoundError */
  async instancesOf(
    caller: Caller,
    ref: JobRef,
    offset: number,
    limit: number,
    after?: { fireTime: number; shardIndex: number },
  ): Promise<{ rows: JobInstance[]; total: number }> {
    const jobId = (await this.jobs.find(caller, ref)).id;
    const [rows, total] = await Promise.all([
      this.instances.listByJob(jobId, offset, limit, after),
      this.instances.countByJob(jobId),
    ]);
    return { rows, total };
  }

  /** Cancels one instance (CancelService) with its audit row; an ended one is unchanged. @throws NotFoundError */
  async cancelInstance(caller: Caller, ref: JobRef, instanceId: string): Promise<JobInstance> {
    const row = await this.ownInstance(caller, ref, instanceId);
    await this.cancels.cancel(row, `cancelled by ${caller.appId}`, (em, was) =>
      this.audit.record(
        em,
        caller.appId,
        AuditAction.INSTANCE_CANCEL,
        { type: 'job', id: was.jobId as string },
        { instanceId, status: was.status },
        { instanceId, status: JobInstanceStatus.CANCELLED },
      ),
    );
    return (await this.instances.findById(instanceId)) as JobInstance;
  }

  /** @throws NotFoundError for a job the caller may not see, or an instance that is not this job's. */
  private async ownInstance(caller: Caller, ref: JobRef, instanceId: string): Promise<JobInstance> {
    const def = await this.jobs.find(caller, ref);
    const row = await this.instances.findById(instanceId);
    if (!row || row.jobId !== def.id) throw new NotFoundError('instance', instanceId);
    return row;
  }
}
