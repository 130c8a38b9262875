import { Inject, Injectable } from '@nestjs/common';
import { BOUNDS, CLOCK, type Clock } from '../../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { type Caller, namedApp } from '../../jobs/index.js';
import { JobDefinitionRepository } from '../../metadata/index.js';
import { fireLoad, LOAD_BUCKET_MS } from '../../trigger/index.js';
import { LOAD_MAX_JOBS, ScheduleLoadDto } from '../dto/schedule.dto.js';
import { iso } from '../views/iso.js';

/**
 * GET /api/schedules/load (docs/api.md "Schedule load"): the fires the enabled jobs the caller sees will make over
 * the next hours, per minute, and the seconds where many fall together; computed by the trigger module's
 * {@link fireLoad} from the planner's own search. One read of job_definition. Reads only.
 */
@Injectable()
export class ScheduleLoadService {
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
