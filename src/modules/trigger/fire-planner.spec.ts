import { CorruptJson, JobDefinition, MisfirePolicy, TriggerSource, TriggerType } from '../metadata/index.js';
import { FIRE_ALL_MAX, misfiresHandled, planFire } from './fire-planner.js';

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 30, 12, 0, 0);

function def(over: Partial<JobDefinition>): JobDefinition {
  return Object.assign(new JobDefinition(), {
    triggerType: TriggerType.CRON,
    triggerExpr: '0 * * * * *',
    timeZone: 'UTC',
    misfirePolicy: MisfirePolicy.FIRE_ONCE_NOW,
    nextFireTime: T0,
    ...over,
  });
}

describe('planFire', () => {
  it("should fire nothing and stop the schedule with the reason when the job's stored params cannot be read", () => {
    const p = planFire(def({ params: new CorruptJson(65_535, 'cut') as never }), T0 + 40, 5000);
    expect(p).toMatchObject({
      fireTimes: [],
      skippedTimes: [],
      nextFireTime: null,
      error: 'CORRUPT_ROW: params is not valid JSON (65535 bytes)',
    });
  });

  it('should fire on time at next_fire_time and step one period when lateness is within the threshold', () => {
    expect(planFire(def({}), T0 + 40, 5000)).toEqual({
      fireTimes: [T0],
      skippedTimes: [],
      source: TriggerSource.SCHEDULE,
      nextFireTime: T0 + MIN,
      misfired: false,
      dropped: 0,
    });
  });

  it(
    'should fire once, for the latest missed time, and skip to the first fire after now when FIRE_ONCE_NOW ' +
      'misfired',
    () => {
      const p = planFire(def({}), T0 + 10 * MIN + 5, 5000);
      expect(p).toEqual({
        fireTimes: [T0 + 10 * MIN],
        skippedTimes: [],
        source: TriggerSource.MISFIRE,
        nextFireTime: T0 + 11 * MIN,
        misfired: true,
        dropped: 10,
      });
    },
  );

  it(
    'should find the latest missed time beyond the walk bound (a per-second job down for a day) when ' +
      'FIRE_ONCE_NOW misfired',
    () => {
      const p = planFire(def({ triggerExpr: '* * * * * *' }), T0 + 86_400_000 + 500, 5000);
      expect(p.fireTimes).toEqual([T0 + 86_400_000]);
    },
  );

  it('should create nothing and skip ahead when SKIP misfired', () => {
    const p = planFire(def({ misfirePolicy: MisfirePolicy.SKIP }), T0 + 10 * MIN + 5, 5000);
    expect(p).toEqual({
      fireTimes: [],
      skippedTimes: Array.from({ length: 11 }, (_, i) => T0 + i * MIN),
      source: TriggerSource.MISFIRE,
      nextFireTime: T0 + 11 * MIN,
      misfired: true,
      dropped: 0,
    });
  });

  it('should fire every missed time up to now, oldest first, when FIRE_ALL misfired', () => {
    const p = planFire(def({ misfirePolicy: MisfirePolicy.FIRE_ALL }), T0 + 10 * MIN + 5, 5000);
    expect(p.fireTimes).toEqual(Array.from({ length: 11 }, (_, i) => T0 + i * MIN));
    expect(p).toMatchObject({ source: TriggerSource.MISFIRE, nextFireTime: T0 + 11 * MIN, dropped: 0 });
  });

  it('should bound FIRE_ALL to the oldest FIRE_ALL_MAX missed times and drop the rest', () => {
    const p = planFire(
      def({ misfirePolicy: MisfirePolicy.FIRE_ALL, triggerExpr: '* * * * * *' }),
      T0 + 3_600_000,
      5000,
    );
    expect(p.fireTimes).toHaveLength(FIRE_ALL_MAX);
    expect(p.fireTimes[0]).toBe(T0);
    expect(p.fireTimes[FIRE_ALL_MAX - 1]).toBe(T0 + (FIRE_ALL_MAX - 1) * 1000);
    expect(p.nextFireTime).toBe(T0 + 3_601_000);
    expect(p.dropped).toBeGreaterThan(0);
  });

  it('should leave no next fire for ONE_SHOT and for FIXED_DELAY (counted from the finish)', () => {
    expect(
      planFire(def({ triggerType: TriggerType.ONE_SHOT, triggerExpr: new Date(T0).toISOString() }), T0, 5000)
        .nextFireTime,
    ).toBeNull();
    expect(
      planFire(def({ triggerType: TriggerType.FIXED_DELAY, triggerExpr: '5000' }), T0, 5000).nextFireTime,
    ).toBeNull();
  });

  it('should keep FIXED_RATE on its grid, also after a misfire', () => {
    expect(
      planFire(def({ triggerType: TriggerType.FIXED_RATE, triggerExpr: '15000' }), T0 + 300, 5000).nextFireTime,
    ).toBe(T0 + 15000);
    const late = planFire(
      def({ triggerType: TriggerType.FIXED_RATE, triggerExpr: '15000', misfirePolicy: MisfirePolicy.FIRE_ALL }),
      T0 + 50_000,
      5000,
    );
    expect(late.fireTimes).toEqual([T0, T0 + 15000, T0 + 30000, T0 + 45000]);
    expect(late.nextFireTime).toBe(T0 + 60000);
  });

  it('should fire nothing and report an error instead of throwing when the schedule cannot be computed', () => {
    const p = planFire(def({ triggerExpr: 'not a cron' }), T0, 5000);
    expect(p.nextFireTime).toBeNull();
    expect(p.fireTimes).toEqual([]);
    expect(p.error).toBeTruthy();
  });

  it('should give a skipped FIXED_DELAY job its next fire one delay after now', () => {
    const p = planFire(
      def({ triggerType: TriggerType.FIXED_DELAY, triggerExpr: '60000', misfirePolicy: MisfirePolicy.SKIP }),
      T0 + MIN,
      5000,
    );
    expect(p).toMatchObject({ fireTimes: [], skippedTimes: [T0], nextFireTime: T0 + 2 * MIN });
  });

  it('should count every missed time a policy handled, whichever it is, and none on time or on error', () => {
    const late = T0 + 10 * MIN + 5; // T0 … T0 + 10 min: 11 missed times
    for (const misfirePolicy of [MisfirePolicy.FIRE_ONCE_NOW, MisfirePolicy.SKIP, MisfirePolicy.FIRE_ALL])
      expect([misfirePolicy, misfiresHandled(planFire(def({ misfirePolicy }), late, 5000))]).toEqual([
        misfirePolicy,
        11,
      ]);
    expect(misfiresHandled(planFire(def({}), T0 + 40, 5000))).toBe(0);
    expect(misfiresHandled(planFire(def({ triggerExpr: 'not cron' }), late, 5000))).toBe(0);
    // Beyond one pass's bound the count is a lower bound: FIRE_ALL_MAX handled, one more for the rest.
    const day = planFire(def({ misfirePolicy: MisfirePolicy.SKIP, triggerExpr: '* * * * * *' }), T0 + 86_400_000, 5000);
    expect(misfiresHandled(day)).toBe(FIRE_ALL_MAX + 1);
  });
});
