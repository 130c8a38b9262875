import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '../../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { type Caller, namedApp } from '../../jobs/index.js';
import { FINAL_STATUSES, InstanceReads, JobInstanceStatus as S } from '../../metadata/index.js';
import { ReadGate } from './read-gate.js';
import { OverviewDto, type StatusCountDto } from '../dto/overview.dto.js';
import { iso } from '../views/iso.js';

const HOUR_MS = 3_600_000;
/** Hours the overview's window spans, the current (partial) one last. */
const HOURS = 24;
/** RUNNING instances it lists at most. */
const RUNNING_LISTED = 20;
const FINAL = [...FINAL_STATUSES];
const QUEUED = [S.PENDING, S.WAITING, S.DISPATCHED];

/**
 * GET /api/overview (docs/api.md "Overview"): what finished in the last 24 hours by status and hour, what runs and
 * waits now, of the caller's app (an admin: the namespace, or ?appId=). Four reads of job_instance, each on an
 * index: finished_at for the window, (status, fire_time) or (app_id, status) for the rest. Reads only.
 */
@Injectable()
export class OverviewService {
  constructor(
    private readonly instances: InstanceReads,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly gate: ReadGate,
  ) {}

  /**
   * The figures at the clock's now: the window is the 24 whole UTC hours ending with the current one, read up to
   * now. @throws ForbiddenError(admin) when a non-admin names another app.
   */
  async overview(caller: Caller, appId: string | undefined): Promise<OverviewDto> {
    const scope = { namespace: this.config.namespace, appId: namedApp(caller, appId, true) };
    const now = this.clock.now();
    const start = now - (now % HOUR_MS) - (HOURS - 1) * HOUR_MS;
    const [byHour, counts, running] = await this.gate.run(caller.appId, () =>
      Promise.all([
        this.instances.finishedByHour(scope, start, now),
        this.instances.countByStatus(scope, [S.RUNNING, ...QUEUED]),
        this.instances.runningNow(scope, RUNNING_LISTED),
      ]),
    );
    const hours = Array.from({ length: HOURS }, () => new Map<S, number>());
    const totals = new Map<S, number>();
    for (const r of byHour) {
      const h = hours[(r.hour - start) / HOUR_MS];
      if (!h) continue; // a row finished after the read began
      h.set(r.status, (h.get(r.status) ?? 0) + r.count);
      totals.set(r.status, (totals.get(r.status) ?? 0) + r.count);
    }
    const of = (m: Map<S, number>, s: S) => m.get(s) ?? 0;
    const finished = FINAL.map((status) => ({ status, count: of(totals, status) }));
    const failed = of(totals, S.FAILED) + of(totals, S.TIMEOUT);
    const judged = failed + of(totals, S.SUCCESS);
    return {
      windowStart: iso(start) as string,
      windowEnd: iso(now) as string,
      finished,
      failureRate: judged === 0 ? null : failed / judged,
      hourly: hours.map((h, i) => ({
        hourStart: iso(start + i * HOUR_MS) as string,
        counts: FINAL.map((status): StatusCountDto => ({ status, count: of(h, status) })),
      })),
      running: of(counts, S.RUNNING),
      runningNow: running.map((r) => ({
        instanceId: r.id,
        requestId: r.requestId,
        appId: r.appId,
        jobId: r.jobId,
        jobCode: r.jobCode,
        handler: r.handler,
        nodeId: r.nodeId,
        attempt: r.attempt,
        startedAt: iso(r.startedAt),
        progress: r.progress,
        progressNote: r.progressNote,
        progressAt: iso(r.progressAt),
      })),
      queued: QUEUED.map((status) => ({ status, count: of(counts, status) })),
    };
  }
}
