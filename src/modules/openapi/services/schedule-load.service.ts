import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { BOUNDS, CLOCK, type Clock } from '../../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { type Caller, namedApp } from '../../jobs/index.js';
import { JobDefinitionRepository } from '../../metadata/index.js';
import { fireLoad, LOAD_BUCKET_MS } from '../../trigger/index.js';
import { LOAD_MAX_JOBS, ScheduleLoadDto } from '../dto/schedule.dto.js';
import { iso } from '../views/iso.js';

/** How long one answer of the load is reused, ms: the span of its minute bucket. */
export const LOAD_CACHE_MS = LOAD_BUCKET_MS;

/**
 * GET /api/schedules/load (docs/api.md "Schedule load"): the fires the enabled jobs the caller sees will make over
 * the next hours, per minute, and the seconds where many fall together; computed by the trigger module's
 * {@link fireLoad} from the planner's own search. One read of job_definition. Reads only. An answer is computed at
 * most once per minute bucket, app and query on each api process (kept {@link LOAD_CACHE_MS}; asks meanwhile, and
 * asks while it is computed, share it): ten open consoles cost one computation a minute, and a change of a job shows
 * from the next minute.
 */
@Injectable()
export class ScheduleLoadService {
  private readonly answers = new LRUCache<string, Promise<ScheduleLoadDto>>({ max: 1000, ttl: LOAD_CACHE_MS });

  constructor(
    private readonly jobs: JobDefinitionRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * The load from the start of the clock's current minute over `hours`, herds of at least `herd` fires.
   * @throws ForbiddenError(admin) when a non-admin names another app.
   */
  async load(
    caller: Caller,
    appId: string | undefined,
    hours: number = BOUNDS.hours.default,
    herd: number = BOUNDS.herd.default,
  ): Promise<ScheduleLoadDto> {
    const owner = namedApp(caller, appId, true);
    const now = this.clock.now();
    const from = now - (now % LOAD_BUCKET_MS);
    const key = `${owner ?? '*'}\n${from}\n${hours}\n${herd}`;
    let answer = this.answers.get(key);
    if (!answer) {
      answer = this.compute(owner, from, hours, herd);
      this.answers.set(key, answer);
      answer.catch(() => this.answers.delete(key)); // a failed read is asked again, not kept
    }
    return answer;
  }

  private async compute(owner: string | null, from: number, hours: number, herd: number): Promise<ScheduleLoadDto> {
    const to = from + hours * 3_600_000;
    const jobs = await this.jobs.schedulesOf(this.config.namespace, owner, LOAD_MAX_JOBS);
    const load = fireLoad(jobs, { from, to, herd });
    return {
      from: iso(from) as string,
      to: iso(to) as string,
      bucketMs: LOAD_BUCKET_MS,
      buckets: load.buckets,
      herds: load.herds.map((h) => ({ at: iso(h.at) as string, fires: h.fires, jobs: h.jobs })),
      jobs: load.jobs,
      estimatedJobs: load.estimatedJobs,
    };
  }
}
