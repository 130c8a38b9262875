import { Inject, Injectable, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CLOCK, type Clock, repeatEvery } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import {
  JobDefinitionRepository,
  type JobInstance,
  JobInstanceStatus,
  MetadataModule,
  type MetricsJob,
} from '../metadata/index.js';
import { FINISHED_STATUS_LABELS, MetricsService } from '../observability/index.js';

/** How often every process reads which jobs of its namespace have metrics on: the delay of an opt-in or out. */
export const JOB_METRICS_REFRESH_MS = 30_000;

/**
 * Counts instances that reached a final status (docs/observability.md "Job runs"), wherever the status is written
 * (executor, api, leader): `tickwheel_instances_finished_total{status}` always, and `tickwheel_job_runs_total{app,
 * job,status}` for a job with metrics on. Which jobs have it on is read every {@link JOB_METRICS_REFRESH_MS} (at most
 * JOB_METRICS_MAX, by slot): their series are created at 0 (so increase() sees a first run), those of jobs turned
 * off, deleted or renamed since are removed. The label set is that list, however many jobs ran.
 */
@Injectable()
export class JobRunMetrics implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(JobRunMetrics.name);
  /** The jobs with metrics on, by job id, as of the last refresh. */
  private jobs = new Map<string, MetricsJob>();
  private stop: () => void = () => undefined;

  constructor(
    private readonly definitions: JobDefinitionRepository,
    private readonly metrics: MetricsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    void this.refresh();
    this.stop = repeatEvery(this.clock, JOB_METRICS_REFRESH_MS, () => void this.refresh());
  }

  onApplicationShutdown(): void {
    this.stop();
  }

  /** Reads the jobs with metrics on and sets the series to match; a failed read keeps the last list (logged). */
  async refresh(): Promise<void> {
    let read: MetricsJob[];
    try {
      read = await this.definitions.withMetrics(this.config.namespace, this.config.jobMetricsMax);
    } catch (err) {
      this.logger.warn(`reading the jobs with metrics on failed, the last list stays: ${(err as Error).message}`);
      return;
    }
    const next = new Map(read.map((j) => [j.id, j]));
    const labels = (j: MetricsJob) => FINISHED_STATUS_LABELS.map((status) => ({ app: j.appId, job: j.code, status }));
    const key = (j: MetricsJob) => `${j.appId}\u0000${j.code}`;
    const kept = new Set(read.map(key));
    for (const old of this.jobs.values())
      if (!kept.has(key(old))) for (const l of labels(old)) this.metrics.jobRuns.remove(l);
    for (const j of read) for (const l of labels(j)) this.metrics.jobRuns.inc(l, 0);
    this.jobs = next;
  }

  /** Counts `row` reaching final `status`: in every case, and as its job's run when the job has metrics on. */
  finished(row: Pick<JobInstance, 'jobId'>, status: JobInstanceStatus): void {
    this.metrics.instancesFinished.inc({ status });
    const job = row.jobId === null ? undefined : this.jobs.get(row.jobId);
    if (job) this.metrics.jobRuns.inc({ app: job.appId, job: job.code, status });
  }
}

/** {@link JobRunMetrics} for every module that writes final statuses (execution's writers, dispatch). */
@Module({ imports: [MetadataModule], providers: [JobRunMetrics], exports: [JobRunMetrics] })
export class JobRunMetricsModule {}
