import { FakeClock } from '../../../test/fakes/fake-clock.js';
import type { AppConfig } from '../../config/index.js';
import { type JobDefinitionRepository, JobInstanceStatus as S, type MetricsJob } from '../metadata/index.js';
import { MetricsService } from '../observability/index.js';
import { JOB_METRICS_REFRESH_MS, JobRunMetrics } from './job-run-metrics.js';

/** Per-job run counts (docs/observability.md "Job runs") over a stub of the jobs with metrics on. */
describe(JobRunMetrics.name, () => {
  let metrics: MetricsService;
  let clock: FakeClock;
  let optedIn: MetricsJob[] | Error;
  let asked: Array<[string, number]>;
  let sut: JobRunMetrics;

  beforeEach(() => {
    metrics = new MetricsService();
    clock = new FakeClock(Date.UTC(2030, 0, 1));
    optedIn = [];
    asked = [];
    const definitions = {
      withMetrics: async (ns: string, limit: number) => {
        asked.push([ns, limit]);
        if (optedIn instanceof Error) throw optedIn;
        return optedIn;
      },
    } as unknown as JobDefinitionRepository;
    const config = { namespace: 'ns-1', jobMetricsMax: 7 } as AppConfig;
    sut = new JobRunMetrics(definitions, metrics, config, clock);
  });

  afterEach(() => sut.onApplicationShutdown());

  const runs = async () =>
    Object.fromEntries(
      (await metrics.jobRuns.get()).values.map((v) => [`${v.labels.app}/${v.labels.job}/${v.labels.status}`, v.value]),
    );
  const finished = async () =>
    Object.fromEntries((await metrics.instancesFinished.get()).values.map((v) => [v.labels.status, v.value]));
  const job = (id: string, code: string): MetricsJob => ({ id, appId: 'app-a', code });

  it('should create every status of a job with metrics on at 0, and count only such jobs', async () => {
    optedIn = [job('j1', 'report')];
    await sut.refresh();
    expect(asked).toEqual([['ns-1', 7]]);
    expect(await runs()).toEqual({
      'app-a/report/SUCCESS': 0,
      'app-a/report/FAILED': 0,
      'app-a/report/TIMEOUT': 0,
      'app-a/report/CANCELLED': 0,
    });
    sut.finished({ jobId: 'j1' }, S.FAILED);
    sut.finished({ jobId: 'j2' }, S.FAILED); // a job without metrics
    sut.finished({ jobId: null }, S.SUCCESS); // a task
    expect((await runs())['app-a/report/FAILED']).toBe(1);
    expect(await finished()).toMatchObject({ FAILED: 2, SUCCESS: 1 });
  });

  it('should drop the series of a job turned off or renamed, and keep the list when a read fails', async () => {
    optedIn = [job('j1', 'report'), job('j2', 'mail')];
    await sut.refresh();
    sut.finished({ jobId: 'j2' }, S.SUCCESS);
    optedIn = [job('j1', 'report-v2')];
    await sut.refresh();
    expect(Object.keys(await runs()).map((k) => k.split('/')[1])).toEqual([
      'report-v2',
      'report-v2',
      'report-v2',
      'report-v2',
    ]);
    optedIn = new Error('database gone');
    await sut.refresh();
    sut.finished({ jobId: 'j1' }, S.SUCCESS);
    expect((await runs())['app-a/report-v2/SUCCESS']).toBe(1);
  });

  it('should read the list at start and every JOB_METRICS_REFRESH_MS until shutdown', async () => {
    const t0 = clock.now();
    sut.onApplicationBootstrap();
    clock.advanceTo(t0 + JOB_METRICS_REFRESH_MS * 2);
    expect(asked.length).toBe(3);
    sut.onApplicationShutdown();
    clock.advanceTo(t0 + JOB_METRICS_REFRESH_MS * 4);
    expect(asked.length).toBe(3);
  });
});
