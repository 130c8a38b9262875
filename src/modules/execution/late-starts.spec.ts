import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { FakeClock } from '../../../test/fakes/fake-clock.js';
import { type ClaimedInstance, JobInstance, TriggerSource } from '../metadata/index.js';
import { MetricsService } from '../observability/index.js';
import { LATE_WARN_EVERY_MS, LateStarts } from './late-starts.js';

const T0 = Date.parse('2026-12-05T10:00:00.000Z');

function claim(jobId: string | null, fireTime: number, startedAt: number, extra: Partial<JobInstance> = {}) {
  const row = Object.assign(new JobInstance(), {
    id: `i-${fireTime}`,
    jobId,
    jobCode: 'nightly',
    appId: 'app-a',
    attempt: 1,
    triggerSource: TriggerSource.SCHEDULE,
    fireTime,
    ...extra,
  });
  return { row, fencingToken: 1, startedAt, checkpoint: null } as ClaimedInstance;
}

const spyWarn = () => jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);

describe('LateStarts', () => {
  let clock: FakeClock;
  let metrics: MetricsService;
  let warn: ReturnType<typeof spyWarn>;
  const late = (ms = 500) => new LateStarts(metrics, { lateFireWarnMs: ms, namespace: 'ns-1' }, clock);
  const counted = async () =>
    (await metrics.registry.getSingleMetric('tickwheel_late_fire_starts_total')?.get())?.values[0]?.value;

  beforeEach(() => {
    clock = new FakeClock(T0);
    metrics = new MetricsService();
    warn = spyWarn();
  });
  afterEach(() => warn.mockRestore());

  it('should warn once naming the job, its namespace and how late, past the threshold only', async () => {
    const sut = late();
    sut.claimed([claim('job-1', T0 - 500, T0), claim('job-2', T0 - 501, T0)]);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toBe(
      'job app-a/nightly (id job-2, namespace ns-1) started 501 ms late: fire time 2026-12-05T09:59:59.499Z, ' +
        'over LATE_FIRE_WARN_MS 500',
    );
    expect(await counted()).toBe(1);
  });

  it('should hold later lines of the same job for a minute and count them into the next', async () => {
    const sut = late();
    sut.claimed([claim('job-1', T0 - 2000, T0)]);
    for (let i = 1; i <= 3; i++) sut.claimed([claim('job-1', T0 + i * 1000 - 2000, T0 + i * 1000)]);
    sut.claimed([claim('job-9', T0 - 900, T0)]); // another job has its own minute
    expect(warn).toHaveBeenCalledTimes(2);
    clock.advanceTo(T0 + LATE_WARN_EVERY_MS);
    sut.claimed([claim('job-1', T0 + LATE_WARN_EVERY_MS - 700, T0 + LATE_WARN_EVERY_MS)]);
    expect(warn).toHaveBeenCalledTimes(3);
    expect(warn.mock.calls[2][0]).toMatch(/started 700 ms late: .*; 3 more late start\(s\) of it since the last line$/);
    expect(await counted()).toBe(6);
  });

  it('should leave out retries, manual runs, backfills, API tasks, and everything when set to 0', async () => {
    late().claimed([
      claim('job-1', T0 - 9000, T0, { attempt: 2 }),
      claim('job-1', T0 - 9000, T0, { triggerSource: TriggerSource.MANUAL }),
      claim('job-1', T0 - 9000, T0, { triggerSource: TriggerSource.BACKFILL }),
      claim(null, T0 - 9000, T0, { triggerSource: TriggerSource.API }),
    ]);
    late(0).claimed([claim('job-1', T0 - 9000, T0)]);
    expect(warn).not.toHaveBeenCalled();
    expect(await counted()).toBe(0);
  });
});
