import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/index.js';
import {
  type JobDefinition,
  JobDefinitionRepository,
  PausedReason,
  ScheduleState,
  TriggerType,
  type Tx,
} from '../metadata/index.js';
import { computeNextFireTime, JobChangeFires, JobSignals } from '../trigger/index.js';
import { AuditAction, AuditService } from './audit/audit.service.js';
import { jobTarget } from './job-rules.js';

/**
 * The jobs of an app whose client is disabled or enabled again (docs/tenancy.md "Disabled clients"): disabling
 * pauses its enabled jobs in every namespace as a user's pause does, marked CLIENT_DISABLED with the time; enabling
 * resumes exactly those from their first fire after that time, so the leader hands the fires missed meanwhile to
 * the job's misfire policy (a user's resume starts from now instead), its queued fires too. Each gets an audit
 * row under the admin.
 */
@Injectable()
export class ClientJobs {
  constructor(
    private readonly jobs: JobDefinitionRepository,
    private readonly audit: AuditService,
    private readonly fires: JobChangeFires,
    private readonly signals: JobSignals,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Inside `em`: pauses app `appId`'s enabled jobs for CLIENT_DISABLED. @returns their ids (for {@link signal}). */
  async pauseAll(em: Tx, actor: string | null, appId: string): Promise<string[]> {
    const ids: string[] = [];
    const pausedAt = this.clock.now();
    for (const def of await this.jobs.ownedForClient(em, appId)) {
      const reason = PausedReason.CLIENT_DISABLED;
      const patch = { enabled: false, nextFireTime: null, pausedReason: reason, pausedAt, ...this.stamp(actor) };
      await this.jobs.update(def, patch, em);
      await this.fires.unstage(em, def.id);
      await this.record(em, actor, AuditAction.JOB_PAUSE, def, { enabled: false, pausedReason: reason });
      ids.push(def.id);
    }
    return ids;
  }

  /**
   * Inside `em`: resumes its CLIENT_DISABLED jobs from their first fire after the pause, maybe past: the leader's
   * misfire policy takes it (a ONE_SHOT past its instant before the pause stays paused). @returns their ids.
   */
  async resumeAll(em: Tx, actor: string | null, appId: string): Promise<string[]> {
    const ids: string[] = [];
    const now = this.clock.now();
    for (const def of await this.jobs.ownedForClient(em, appId, PausedReason.CLIENT_DISABLED)) {
      const next = firstFireAfter(def, def.pausedAt ?? now);
      const enabled = next !== null;
      const patch = {
        enabled,
        nextFireTime: next,
        pausedReason: null,
        pausedAt: null,
        scheduleState: ScheduleState.OK,
        scheduleError: null,
      };
      await this.jobs.update(def, { ...patch, ...this.stamp(actor) }, em);
      if (enabled) await this.fires.onResume(em, def, now, next);
      await this.record(em, actor, enabled ? AuditAction.JOB_RESUME : AuditAction.JOB_UPDATE, def, {
        enabled,
        pausedReason: null,
      });
      ids.push(def.id);
    }
    return ids;
  }

  /** After the commit: wakes the leader for each job, releases a resumed one's queued fire. Never throws. */
  async signal(ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      await this.signals.jobChanged(id);
      await this.fires.release(id);
    }
  }

  private stamp(actor: string | null): { updatedAt: number; updatedBy: string | null } {
    return { updatedAt: this.clock.now(), updatedBy: actor };
  }

  private record(em: Tx, actor: string | null, action: AuditAction, def: JobDefinition, after: object): Promise<void> {
    const before = { enabled: def.enabled, pausedReason: def.pausedReason ?? null };
    return this.audit.record(em, actor, action, jobTarget(def), before, after, def.namespace);
  }
}

/**
 * The first fire strictly after `from` (epoch ms), on a FIXED_RATE job's grid as fire-planner.ts `nextAfter` keeps
 * it; null: none left, or a schedule that no longer computes.
 */
function firstFireAfter(def: JobDefinition, from: number): number | null {
  try {
    const last = def.lastFireTime ?? null;
    if (def.triggerType !== TriggerType.FIXED_RATE || last === null || last > from)
      return computeNextFireTime(def, from);
    const period = Number(def.triggerExpr);
    return last + (Math.floor((from - last) / period) + 1) * period;
  } catch {
    return null;
  }
}
