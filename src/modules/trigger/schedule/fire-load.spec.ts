import { fireLoad, type LoadJob, loadOf, LOAD_MAX_HERDS, planLoad, planLoadInSlices } from './fire-load.js';

const FROM = Date.UTC(2026, 5, 1, 10, 0, 0);
const HOUR = 3_600_000;
const cron = (code: string, triggerExpr: string, timeZone = 'UTC'): LoadJob => ({
  code,
  triggerType: 'CRON',
  triggerExpr,
  timeZone,
  nextFireTime: FROM,
});
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** The fire load of GET /api/schedules/load (docs/api.md "Schedule load"): buckets, herds, bounded work. */
describe('fireLoad', () => {
  it('should count two jobs at second 0 of every minute as 2 fires a minute, and a herd of 2 at each minute', () => {
    const load = fireLoad([cron('b', '0 * * * * *'), cron('a', '0 * * * * *')], {
      from: FROM,
      to: FROM + HOUR,
      herd: 2,
    });
    expect(load.buckets).toEqual(Array.from({ length: 60 }, () => 2));
    expect(load).toMatchObject({ jobs: 2, estimatedJobs: 0 });
    expect(load.herds).toHaveLength(LOAD_MAX_HERDS); // 60 equal herds: the 50 earliest
    expect(load.herds[0]).toEqual({ at: FROM, fires: 2, jobs: ['a', 'b'] });
    expect(load.herds.map((h) => h.at)).toEqual(Array.from({ length: LOAD_MAX_HERDS }, (_, i) => FROM + i * 60_000));
  });

  it('should find no herd below `herd`, and the larger herds first when more than 50 qualify', () => {
    const jobs = [cron('a', '0 * * * * *'), cron('b', '0 * * * * *'), cron('c', '0 */10 * * * *')];
    expect(fireLoad(jobs, { from: FROM, to: FROM + HOUR, herd: 4 }).herds).toEqual([]);
    const load = fireLoad(jobs, { from: FROM, to: FROM + 2 * HOUR, herd: 2 });
    // 12 seconds hold 3 fires (every 10 min), then the earliest of the 2-fire minutes, all in time order.
    expect(load.herds.filter((h) => h.fires === 3).map((h) => h.at)).toEqual(
      Array.from({ length: 12 }, (_, i) => FROM + i * 600_000),
    );
    expect(load.herds).toHaveLength(LOAD_MAX_HERDS);
    expect(load.herds.map((h) => h.at)).toEqual([...load.herds.map((h) => h.at)].sort((x, y) => x - y));
    expect(load.herds.find((h) => h.fires === 3)?.jobs).toEqual(['a', 'b', 'c']);
  });

  it('should count a dense job past its cap from its rate, and say it was estimated', () => {
    const load = fireLoad([cron('dense', '* * * * * *'), cron('hourly', '0 0 * * * *')], {
      from: FROM,
      to: FROM + 24 * HOUR,
      herd: 2,
    });
    expect(load).toMatchObject({ jobs: 2, estimatedJobs: 1 });
    expect(load.buckets).toHaveLength(24 * 60);
    expect(load.buckets.filter((n, m) => n !== (m % 60 === 0 ? 61 : 60))).toEqual([]);
    expect(sum(load.buckets)).toBe(86_400 + 24);
    // The 2,000 iterated seconds (33 min 20 s) meet the hourly fire at 10:00 only: the rest is a rate, in no herd.
    expect(load.herds).toEqual([{ at: FROM, fires: 2, jobs: ['dense', 'hourly'] }]);
  });

  it('should share the budget in rounds: what a sparse schedule leaves goes to the dense ones', () => {
    const jobs = [cron('dense-1', '* * * * * *'), cron('dense-2', '*/2 * * * * *'), cron('daily', '30 2 10 * * *')];
    const load = fireLoad(jobs, { from: FROM, to: FROM + HOUR, herd: 100, budget: 600 });
    expect(load).toMatchObject({ jobs: 3, estimatedJobs: 2 });
    expect(load.buckets[2]).toBe(60 + 30 + 1);
    expect(sum(load.buckets)).toBe(3600 + 1800 + 1);
  });

  it('should follow a FIXED_RATE grid from the next fire, FIXED_DELAY as zero run time, ONE_SHOT once', () => {
    const jobs: LoadJob[] = [
      { code: 'rate', triggerType: 'FIXED_RATE', triggerExpr: '90000', timeZone: null, nextFireTime: FROM + 30_000 },
      { code: 'late', triggerType: 'FIXED_RATE', triggerExpr: '600000', timeZone: null, nextFireTime: FROM - 60_000 },
      { code: 'delay', triggerType: 'FIXED_DELAY', triggerExpr: '1200000', timeZone: null, nextFireTime: FROM },
      { code: 'once', triggerType: 'ONE_SHOT', triggerExpr: '2026-06-01T10:05:00Z', timeZone: null, nextFireTime: 1 },
    ];
    const load = fireLoad(jobs, { from: FROM, to: FROM + 10 * 60_000, herd: 2 });
    // rate: 0:30, 2:00, 3:30, 5:00, 6:30, 8:00, 9:30; late: its grid at 9:00; delay: 0:00; once: 5:00.
    expect(load.buckets).toEqual([2, 0, 1, 1, 0, 2, 1, 0, 1, 2]);
    expect(load.herds).toEqual([{ at: FROM + 300_000, fires: 2, jobs: ['once', 'rate'] }]);
    expect(load.jobs).toBe(4);
  });

  it('should read a cron in its zone, and leave out a job whose schedule cannot be computed', () => {
    const jobs = [
      cron('tokyo', '0 0 19 * * *', 'Asia/Tokyo'), // 10:00 UTC
      { ...cron('broken', 'not a cron'), code: 'broken' },
      { code: 'api', triggerType: 'API', triggerExpr: null, timeZone: null, nextFireTime: FROM },
    ];
    const load = fireLoad(jobs, { from: FROM, to: FROM + HOUR, herd: 2 });
    expect(load.buckets[0]).toBe(1);
    expect(sum(load.buckets)).toBe(1);
    expect(load.jobs).toBe(2); // tokyo, and api (which never fires)
  });

  it('should refuse a span that is not whole minutes', () => {
    expect(() => fireLoad([], { from: FROM, to: FROM + 1000, herd: 2 })).toThrow(RangeError);
    expect(fireLoad([], { from: FROM, to: FROM + HOUR, herd: 2 })).toEqual({
      buckets: Array.from({ length: 60 }, () => 0),
      herds: [],
      jobs: 0,
      estimatedJobs: 0,
    });
  });

  it('should answer a shorter span and any herd from one plan of the longer span, as fireLoad would', () => {
    const jobs = [cron('a', '0 * * * * *'), cron('b', '0 * * * * *'), cron('c', '*/7 * * * * *')];
    const plan = planLoad(jobs, { from: FROM, to: FROM + 48 * HOUR });
    for (const [hours, herd] of [
      [1, 2],
      [24, 3],
      [48, 2],
    ])
      expect(loadOf(plan, { to: FROM + hours * HOUR, herd })).toEqual(
        fireLoad(jobs, { from: FROM, to: FROM + hours * HOUR, herd }),
      );
    expect(() => loadOf(plan, { to: FROM + 49 * HOUR, herd: 2 })).toThrow(RangeError);
  });

  it('should give the event loop back while it plans in slices, and plan the same', async () => {
    const jobs = Array.from({ length: 50 }, (_, i) => cron(`j${i}`, `${i % 60} * * * * *`));
    const opts = { from: FROM, to: FROM + 48 * HOUR };
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    const sliced = await planLoadInSlices(jobs, opts, 0);
    clearInterval(ticker);
    expect(turns).toBeGreaterThan(0); // timers ran while it planned
    expect(loadOf(sliced, { to: opts.to, herd: 2 })).toEqual(loadOf(planLoad(jobs, opts), { to: opts.to, herd: 2 }));
  });
});
