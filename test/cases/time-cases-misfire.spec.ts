/**
 * test/fixtures/time-cases.md BC-09: a fixed-rate job's anchor and its misfires, driven through `planFire` by a
 * small outage simulation; where the planner cannot meet a row yet, an `it.todo` says what it needs.
 */
import { JobDefinition, MisfirePolicy, TriggerSource, TriggerType } from '../../src/modules/metadata/index.js';
import { planFire } from '../../src/modules/trigger/fire-planner.js';
import { computeNextFireTime } from '../../src/modules/trigger/schedule/schedule.js';
import { isos, ms } from './time-case-helpers.js';

describe('time-cases.md BC-09: fixed-rate anchor and misfire (planFire, whole cluster down, threshold 5 s)', () => {
  const HOUR = 3_600_000;
  type Fire = { fireTime: string; source: TriggerSource; plannedAt: string };
  const job = (triggerType: TriggerType, triggerExpr: string, misfirePolicy: MisfirePolicy, nextFireTime: string) =>
    Object.assign(new JobDefinition(), {
      triggerType,
      triggerExpr,
      timeZone: 'UTC',
      misfirePolicy,
      nextFireTime: ms(nextFireTime),
    });

  /** The leader acts at each next_fire_time, or when it is back if that time falls in the outage. */
  function run(def: JobDefinition, until: string, outage: [string, string]): Fire[] {
    const fires: Fire[] = [];
    while (def.nextFireTime !== null && def.nextFireTime <= ms(until)) {
      const now =
        def.nextFireTime >= ms(outage[0]) && def.nextFireTime < ms(outage[1]) ? ms(outage[1]) : def.nextFireTime;
      const plan = planFire(def, now, 5000);
      expect(plan.error).toBeUndefined();
      fires.push(
        ...plan.fireTimes.map((t) => ({ fireTime: isos([t])[0], source: plan.source, plannedAt: isos([now])[0] })),
      );
      def.nextFireTime = plan.nextFireTime;
    }
    return fires;
  }
  const times = (fires: Fire[]) => fires.map((f) => f.fireTime.slice(11, 16));
  const rate = (policy: MisfirePolicy) => job(TriggerType.FIXED_RATE, String(HOUR), policy, '2026-01-05T08:10:00Z');
  const cron = (policy: MisfirePolicy) => job(TriggerType.CRON, '*/5 * * * *', policy, '2026-01-05T10:00:00Z');

  it('BC-09 A fixed rate keeps the 10:10 grid after a 09:30-09:40 outage, no fire at 10:40', () => {
    const fires = run(rate(MisfirePolicy.FIRE_ONCE_NOW), '2026-01-05T12:10:00Z', [
      '2026-01-05T09:30:00Z',
      '2026-01-05T09:40:00Z',
    ]);
    expect(times(fires)).toEqual(['08:10', '09:10', '10:10', '11:10', '12:10']);
    // The pure layer: the next fire counts from the previous fire, not from the restart.
    expect(
      computeNextFireTime(
        { triggerType: TriggerType.FIXED_RATE, triggerExpr: String(HOUR) },
        ms('2026-01-05T09:10:00Z'),
      ),
    ).toBe(ms('2026-01-05T10:10:00Z'));
  });

  it('BC-09 B FIRE_ONCE_NOW: one catch-up for 10:10 at the 10:20 restart, then 11:10 and 12:10', () => {
    const fires = run(rate(MisfirePolicy.FIRE_ONCE_NOW), '2026-01-05T12:10:00Z', [
      '2026-01-05T09:30:00Z',
      '2026-01-05T10:20:00Z',
    ]);
    expect(times(fires)).toEqual(['08:10', '09:10', '10:10', '11:10', '12:10']);
    expect(fires[2]).toEqual({
      fireTime: '2026-01-05T10:10:00Z',
      source: TriggerSource.MISFIRE,
      plannedAt: '2026-01-05T10:20:00Z',
    });
  });

  it('BC-09 B DO_NOTHING (SKIP): 10:10 is not run, the grid is kept', () => {
    const fires = run(rate(MisfirePolicy.SKIP), '2026-01-05T12:10:00Z', [
      '2026-01-05T09:30:00Z',
      '2026-01-05T10:20:00Z',
    ]);
    expect(times(fires)).toEqual(['08:10', '09:10', '11:10', '12:10']);
  });

  it('BC-09 B DO_NOTHING: the skipped 10:10 slot is recorded (a CANCELLED MISFIRE_SKIP row), never run', () => {
    const plan = planFire(rate(MisfirePolicy.SKIP), ms('2026-01-05T10:20:00Z'), 5000);
    expect(plan.fireTimes).toEqual([]);
    expect(plan.skippedTimes).toEqual([
      ms('2026-01-05T08:10:00Z'),
      ms('2026-01-05T09:10:00Z'),
      ms('2026-01-05T10:10:00Z'),
    ]);
  });

  it('BC-09 C FIRE_ONCE_NOW: 12 missed */5 slots give exactly one catch-up, then 11:05 and 11:10', () => {
    const fires = run(cron(MisfirePolicy.FIRE_ONCE_NOW), '2026-01-05T11:10:00Z', [
      '2026-01-05T10:02:00Z',
      '2026-01-05T11:03:00Z',
    ]);
    expect(fires.filter((f) => f.source === TriggerSource.MISFIRE)).toHaveLength(1);
    expect(times(fires.filter((f) => f.source === TriggerSource.SCHEDULE))).toEqual(['10:00', '11:05', '11:10']);
  });

  it('BC-09 C FIRE_ONCE_NOW: the catch-up has scheduledFireTime 11:00 (the latest missed slot)', () => {
    const fires = run(cron(MisfirePolicy.FIRE_ONCE_NOW), '2026-01-05T11:10:00Z', [
      '2026-01-05T10:02:00Z',
      '2026-01-05T11:03:00Z',
    ]);
    expect(fires.filter((f) => f.source === TriggerSource.MISFIRE).map((f) => f.fireTime)).toEqual([
      '2026-01-05T11:00:00Z',
    ]);
  });

  it('BC-09 C DO_NOTHING (SKIP): no catch-up, then 11:05', () => {
    const fires = run(cron(MisfirePolicy.SKIP), '2026-01-05T11:05:00Z', [
      '2026-01-05T10:02:00Z',
      '2026-01-05T11:03:00Z',
    ]);
    expect(fires.map((f) => [f.fireTime.slice(11, 16), f.source])).toEqual([
      ['10:00', TriggerSource.SCHEDULE],
      ['11:05', TriggerSource.SCHEDULE],
    ]);
  });

  it('BC-09 D FIRE_ONCE_NOW: fixed delay runs 09:30:30 once after the restart, the next 60 s after it ends', () => {
    const delay = { triggerType: TriggerType.FIXED_DELAY, triggerExpr: '60000' };
    expect(computeNextFireTime(delay, ms('2026-01-05T09:29:30Z'))).toBe(ms('2026-01-05T09:30:30Z'));
    const plan = planFire(
      job(TriggerType.FIXED_DELAY, '60000', MisfirePolicy.FIRE_ONCE_NOW, '2026-01-05T09:30:30Z'),
      ms('2026-01-05T09:40:00Z'),
      5000,
    );
    expect(plan).toMatchObject({
      fireTimes: [ms('2026-01-05T09:30:30Z')],
      source: TriggerSource.MISFIRE,
      nextFireTime: null,
    });
    // Nothing else is scheduled until that run finishes, so two copies cannot overlap.
    expect(computeNextFireTime(delay, ms('2026-01-05T09:40:07Z'))).toBe(ms('2026-01-05T09:41:07Z'));
  });

  it('BC-09 D DO_NOTHING (SKIP): the 09:30:30 slot is not run', () => {
    const plan = planFire(
      job(TriggerType.FIXED_DELAY, '60000', MisfirePolicy.SKIP, '2026-01-05T09:30:30Z'),
      ms('2026-01-05T09:40:00Z'),
      5000,
    );
    expect(plan.fireTimes).toEqual([]);
  });

  it('BC-09 D DO_NOTHING: the next run starts 60 s after the restarted scheduler is ready (09:41:00)', () => {
    const plan = planFire(
      job(TriggerType.FIXED_DELAY, '60000', MisfirePolicy.SKIP, '2026-01-05T09:30:30Z'),
      ms('2026-01-05T09:40:00Z'),
      5000,
    );
    expect(plan.skippedTimes).toEqual([ms('2026-01-05T09:30:30Z')]);
    expect(plan.nextFireTime).toBe(ms('2026-01-05T09:41:00Z'));
  });

  it('BC-04 (stored zone) a job whose stored zone is invalid never fires; the job reports the error', () => {
    const def = Object.assign(job(TriggerType.CRON, '0 9 * * *', MisfirePolicy.FIRE_ONCE_NOW, '2026-01-05T09:00:00Z'), {
      timeZone: 'Mars/Olympus',
    });
    const plan = planFire(def, ms('2026-01-05T09:00:00Z'), 5000);
    expect(plan.fireTimes).toEqual([]);
    expect(plan.nextFireTime).toBeNull();
    expect(plan.error).toMatch(/zone/i);
  });
});
