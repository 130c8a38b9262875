import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { BOUNDS, CLOCK, type Clock } from '../../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { type Caller, namedApp } from '../../jobs/index.js';
import { JobDefinitionRepository } from '../../metadata/index.js';
import { type LoadPlan, loadOf, LOAD_BUCKET_MS, planLoadInSlices } from '../../trigger/index.js';
import { LOAD_MAX_JOBS, ScheduleLoadDto } from '../dto/schedule.dto.js';
import { iso } from '../views/iso.js';

/** How long one plan of the load is reused, ms: the span of its minute bucket. */
export const LOAD_CACHE_MS = LOAD_BUCKET_MS;
/** Fires the kept plans may hold together (about 8 bytes each, plus their jobs' codes). */
const LOAD_CACHE_FIRES = 2_000_000;

/**
 * GET /api/schedules/load (docs/api.md "Schedule load"): the fires the enabled jobs the caller sees will make over
 * the next hours, per minute, and the seconds where many fall together, from the planner's own search (the trigger
 * module's {@link planLoadInSlices}, giving the event loop back every few ms). One read of job_definition; reads
 * only. The costly part, the fires of the longest span (48 h), is planned at most once per minute bucket and app (or
 * namespace) on each api process, and every ask of that minute, whatever its `hours` and `herd`, reads its answer
 * from that plan ({@link loadOf}, about a millisecond): ten open consoles, or a client varying its query, cost one
 * plan a minute; a change of a job shows from the next minute.
 */
@Injectable()
export class ScheduleLoadService {
  private readonly plans = new LRUCache<string, Promise<LoadPlan>>({
    max: 1000,
    ttl: LOAD_CACHE_MS,
    maxSize: LOAD_CACHE_FIRES,
    sizeCalculation: () => 1, // replaced once the plan is known (plans(...).then below)
  });

  private readonly answers = new LRUCache<string, ScheduleLoadDto>({ max: 200, ttl: LOAD_CACHE_MS });

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
    const kept = this.answers.get(key); // the same query again this minute (open consoles): no reading of the plan
    if (kept) return kept;
    const answer = this.answerOf(await this.planOf(owner, from), from, hours, herd);
    this.answers.set(key, answer);
    return answer;
  }

  private answerOf(plan: LoadPlan, from: number, hours: number, herd: number): ScheduleLoadDto {
    const to = from + hours * 3_600_000;
    const load = loadOf(plan, { to, herd });
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

  /** The plan of `owner`'s jobs (null: the namespace's) over the longest span from `from`: kept, or made once. */
  private planOf(owner: string | null, from: number): Promise<LoadPlan> {
    const key = `${owner ?? '*'}\n${from}`;
    const kept = this.plans.get(key);
    if (kept) return kept;
    const plan = (async () => {
      const jobs = await this.jobs.schedulesOf(this.config.namespace, owner, LOAD_MAX_JOBS);
      return planLoadInSlices(jobs, { from, to: from + BOUNDS.hours.max * 3_600_000 });
    })();
    this.plans.set(key, plan);
    plan.then(
      (p) => this.plans.get(key) === plan && this.plans.set(key, plan, { size: Math.max(1, p.fires) }),
      () => this.plans.delete(key), // a failed read is asked again, not kept
    );
    return plan;
  }
}
