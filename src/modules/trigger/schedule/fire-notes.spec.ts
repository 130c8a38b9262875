import { ValidationError } from '../../../common/index.js';
import { JobDefinition, MisfirePolicy, TriggerType } from '../../metadata/index.js';
import { planFire } from '../fire-planner.js';
import { describeFires, MAX_PREVIEW_COUNT, previewSchedule, type PreviewedFire } from './fire-notes.js';
import { computeNextFireTime, type TriggerDef } from './schedule.js';

const cron = (triggerExpr: string, timeZone: string): TriggerDef => ({
  triggerType: TriggerType.CRON,
  triggerExpr,
  timeZone,
});
const preview = (def: TriggerDef, from: string, n: number) => previewSchedule(def, Date.parse(from), n);
/** `local` and the note's kind of each fire, e.g. `2026-03-08T03:30:00-04:00 GAP_SHIFTED`. */
const brief = (fires: PreviewedFire[]) => fires.map((f) => `${f.local}${f.note ? ` ${f.note.kind}` : ''}`);

function fieldOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return (err as ValidationError).field;
  }
  throw new Error('expected a ValidationError');
}

describe(previewSchedule.name, () => {
  describe('spring forward (a wall time that does not exist)', () => {
    it('should shift 02:30 to 03:30 EDT with a note when America/New_York springs forward on 2026-03-08', () => {
      const sut = preview(cron('0 30 2 * * *', 'America/New_York'), '2026-03-07T00:00:00Z', 3);
      expect(brief(sut)).toEqual([
        '2026-03-07T02:30:00-05:00',
        '2026-03-08T03:30:00-04:00 GAP_SHIFTED',
        '2026-03-09T02:30:00-04:00',
      ]);
      expect(sut[1].fireTime).toBe(Date.parse('2026-03-08T07:30:00Z'));
      expect(sut[1].note?.detail).toBe(
        '02:30 does not exist on 2026-03-08 in America/New_York (clocks go forward from 02:00 to 03:00, ' +
          'UTC-05:00 → UTC-04:00): fires 1 h later, at 03:30 (UTC-04:00)',
      );
    });

    it('should shift 02:30 to 03:30 CEST when Europe/Berlin springs forward on 2026-03-29', () => {
      const sut = preview(cron('30 2 * * *', 'Europe/Berlin'), '2026-03-28T12:00:00Z', 2);
      expect(brief(sut)).toEqual(['2026-03-29T03:30:00+02:00 GAP_SHIFTED', '2026-03-30T02:30:00+02:00']);
      expect(sut[0].note?.detail).toContain('clocks go forward from 02:00 to 03:00, UTC+01:00 → UTC+02:00');
    });

    it("should shift by 30 minutes when Lord Howe's clocks go from 02:00 to 02:30 on 2026-10-04", () => {
      const sut = preview(cron('0 15 2 * * *', 'Australia/Lord_Howe'), '2026-10-03T00:00:00Z', 2);
      expect(brief(sut)).toEqual(['2026-10-04T02:45:00+11:00 GAP_SHIFTED', '2026-10-05T02:15:00+11:00']);
      expect(sut[0].note?.detail).toBe(
        '02:15 does not exist on 2026-10-04 in Australia/Lord_Howe (clocks go forward from 02:00 to 02:30, ' +
          'UTC+10:30 → UTC+11:00): fires 30 min later, at 02:45 (UTC+11:00)',
      );
    });

    it('should shift each second of a fixed-time seconds cron when its wall times fall in the gap hour', () => {
      const sut = preview(cron('*/30 30 2 * * *', 'Europe/Berlin'), '2026-03-29T00:00:00Z', 3);
      expect(brief(sut)).toEqual([
        '2026-03-29T03:30:00+02:00 GAP_SHIFTED',
        '2026-03-29T03:30:30+02:00 GAP_SHIFTED',
        '2026-03-30T02:30:00+02:00',
      ]);
      expect(sut[1].note?.detail).toMatch(/^02:30:30 does not exist on 2026-03-29 .*at 03:30:30 \(UTC\+02:00\)$/);
    });

    it('should note the skipped times on the first fire after the gap when a seconds cron has * in its minute', () => {
      const sut = preview(cron('*/20 * 2 * * *', 'Europe/Berlin'), '2026-03-29T00:59:00Z', 2);
      expect(brief(sut)).toEqual(['2026-03-30T02:00:00+02:00 GAP_SKIPPED', '2026-03-30T02:00:20+02:00']);
      expect(sut[0].note?.detail).toContain('so 180 matching time(s) in it (02:00, 02:00:20, 02:00:40, …)');
    });

    it('should follow elapsed time and note the skipped 02:00 and 02:30 when a wildcard cron crosses the gap', () => {
      const sut = preview(cron('*/30 * * * *', 'America/New_York'), '2026-03-08T06:00:00Z', 3);
      expect(brief(sut)).toEqual([
        '2026-03-08T01:30:00-05:00',
        '2026-03-08T03:00:00-04:00 GAP_SKIPPED',
        '2026-03-08T03:30:00-04:00',
      ]);
      expect(sut[1].note?.detail).toBe(
        '02:00 to 03:00 does not exist on 2026-03-08 in America/New_York (clocks go forward from 02:00 to 03:00, ' +
          'UTC-05:00 → UTC-04:00): a schedule with * in its minute or hour field follows elapsed time, so 2 ' +
          'matching time(s) in it (02:00, 02:30) did not fire before this one',
      );
    });

    it('should fire once with a SAME_INSTANT note when a shifted 02:30 meets a real 03:30', () => {
      const sut = preview(cron('30 2,3 * * *', 'Europe/Berlin'), '2026-03-28T12:00:00Z', 2);
      expect(brief(sut)).toEqual(['2026-03-29T03:30:00+02:00 SAME_INSTANT', '2026-03-30T02:30:00+02:00']);
      expect(sut[0].note?.detail).toMatch(/^02:30 and 03:30 on 2026-03-29 in Europe\/Berlin fall on the same/);
    });

    it('should name both dates when Apia skipped the whole of 2011-12-30', () => {
      const sut = preview(cron('0 0 30 12 *', 'Pacific/Apia'), '2011-12-28T00:00:00Z', 1);
      expect(brief(sut)).toEqual(['2011-12-31T00:00:00+14:00 GAP_SHIFTED']);
      expect(sut[0].note?.detail).toBe(
        '00:00 does not exist on 2011-12-30 in Pacific/Apia (clocks go forward from 2011-12-30 00:00 to ' +
          '2011-12-31 00:00, UTC-10:00 → UTC+14:00): fires 24 h later, at 00:00 (UTC+14:00)',
      );
    });

    it('should shift midnight to 01:00 when America/Santiago springs forward at midnight on 2026-09-06', () => {
      const sut = preview(cron('0 0 * * *', 'America/Santiago'), '2026-09-04T12:00:00Z', 2);
      expect(brief(sut)).toEqual(['2026-09-05T00:00:00-04:00', '2026-09-06T01:00:00-03:00 GAP_SHIFTED']);
    });
  });

  describe('fall back (a wall time that happens twice)', () => {
    it('should fire 01:30 once, at the first (EDT), when America/New_York falls back on 2026-11-01', () => {
      const sut = preview(cron('0 30 1 * * *', 'America/New_York'), '2026-10-31T12:00:00Z', 2);
      expect(brief(sut)).toEqual(['2026-11-01T01:30:00-04:00 OVERLAP_FIRST_ONLY', '2026-11-02T01:30:00-05:00']);
      expect(sut[0].note?.detail).toBe(
        '01:30 happens twice on 2026-11-01 in America/New_York (clocks go back from 02:00 to 01:00, UTC-04:00 → ' +
          'UTC-05:00): a fixed-time schedule fires once, at the first (UTC-04:00); the second (UTC-05:00) does not ' +
          'fire',
      );
    });

    it('should fire 02:30 once when Europe/Berlin falls back on 2026-10-25', () => {
      const sut = preview(cron('30 2 * * *', 'Europe/Berlin'), '2026-10-24T12:00:00Z', 2);
      expect(brief(sut)).toEqual(['2026-10-25T02:30:00+02:00 OVERLAP_FIRST_ONLY', '2026-10-26T02:30:00+01:00']);
    });

    it('should fire at both 02:30s, each noted, when a wildcard cron crosses the Berlin fall-back', () => {
      const sut = preview(cron('30 * * * *', 'Europe/Berlin'), '2026-10-24T23:15:00Z', 4);
      expect(brief(sut)).toEqual([
        '2026-10-25T01:30:00+02:00',
        '2026-10-25T02:30:00+02:00 OVERLAP_BOTH',
        '2026-10-25T02:30:00+01:00 OVERLAP_BOTH',
        '2026-10-25T03:30:00+01:00',
      ]);
      expect(sut[1].note?.detail).toMatch(/this is the first \(UTC\+02:00\)$/);
      expect(sut[2].note?.detail).toMatch(/this is the second \(UTC\+01:00\)$/);
    });

    it("should fire 01:45 once when Lord Howe's clocks go back from 02:00 to 01:30 on 2026-04-05", () => {
      const sut = preview(cron('0 45 1 * * *', 'Australia/Lord_Howe'), '2026-04-04T00:00:00Z', 2);
      expect(brief(sut)).toEqual(['2026-04-05T01:45:00+11:00 OVERLAP_FIRST_ONLY', '2026-04-06T01:45:00+10:30']);
      expect(sut[0].note?.detail).toContain('clocks go back from 02:00 to 01:30, UTC+11:00 → UTC+10:30');
    });
  });

  it('should note nothing for a year of daily and half-hourly fires when the zone has no DST (Asia/Tokyo)', () => {
    const daily = preview(cron('30 2 * * *', 'Asia/Tokyo'), '2025-12-31T15:00:00Z', 100);
    const halfHourly = preview(cron('*/30 * * * *', 'Asia/Tokyo'), '2026-03-07T00:00:00Z', 100);
    expect([...daily, ...halfHourly].filter((f) => f.note)).toEqual([]);
    expect(daily[0].local).toBe('2026-01-01T02:30:00+09:00');
  });

  it('should answer fewer times, quickly, when a cron fires rarely or not within 8 years of the last', () => {
    const leap = preview(cron('0 0 29 2 *', 'UTC'), '2026-03-01T00:00:00Z', 3);
    expect(brief(leap)).toEqual([
      '2028-02-29T00:00:00+00:00',
      '2032-02-29T00:00:00+00:00',
      '2036-02-29T00:00:00+00:00',
    ]);
    // Valid (it fired on 2024-02-29, a fifth Thursday), next in 2052: beyond the engine's 8-year search.
    expect(preview(cron('0 0 ? 2 4#5', 'UTC'), '2026-01-01T00:00:00Z', 10)).toEqual([]);
  });

  it('should preview FIXED_RATE, FIXED_DELAY and ONE_SHOT as UTC intervals, with no DST notes', () => {
    const over = (triggerType: TriggerType, triggerExpr: string) => ({
      triggerType,
      triggerExpr,
      timeZone: 'America/New_York',
    });
    const from = '2026-03-08T06:30:00Z';
    const rate = preview(over(TriggerType.FIXED_RATE, '3600000'), '2026-03-08T05:30:00Z', 3);
    expect(brief(rate)).toEqual([
      '2026-03-08T01:30:00-05:00',
      '2026-03-08T03:30:00-04:00',
      '2026-03-08T04:30:00-04:00',
    ]);
    expect(preview(over(TriggerType.FIXED_DELAY, '1800000'), from, 2).map((f) => f.fireTime)).toEqual([
      Date.parse(from) + 1_800_000,
      Date.parse(from) + 3_600_000,
    ]);
    expect(brief(preview(over(TriggerType.ONE_SHOT, '2026-03-08T02:30:00-05:00'), from, 5))).toEqual([
      '2026-03-08T03:30:00-04:00',
    ]);
    expect(preview(over(TriggerType.ONE_SHOT, '2026-03-08T01:00:00-05:00'), from, 5)).toEqual([]);
  });

  it('should refuse what job creation refuses, naming the field', () => {
    const from = Date.parse('2026-01-01T00:00:00Z');
    expect(fieldOf(() => previewSchedule(cron('0 0 30 2 *', 'UTC'), from, 3))).toBe('triggerExpr');
    expect(fieldOf(() => previewSchedule(cron('61 * * * *', 'UTC'), from, 3))).toBe('triggerExpr');
    expect(fieldOf(() => previewSchedule(cron('@daily', 'UTC'), from, 3))).toBe('triggerExpr');
    expect(fieldOf(() => previewSchedule(cron('0 * * * *', 'Mars/Olympus'), from, 3))).toBe('timeZone');
    const rate = { triggerType: TriggerType.FIXED_RATE, triggerExpr: '999' };
    expect(fieldOf(() => previewSchedule(rate, from, 3))).toBe('triggerExpr');
    expect(fieldOf(() => previewSchedule({ triggerType: 'HOURLY', triggerExpr: '1' }, from, 3))).toBe('triggerType');
    expect(fieldOf(() => previewSchedule(cron('0 * * * *', 'UTC'), from, 0))).toBe('count');
    expect(fieldOf(() => previewSchedule(cron('0 * * * *', 'UTC'), from, MAX_PREVIEW_COUNT + 1))).toBe('count');
  });

  describe('equals what the scheduler plans', () => {
    const zones = [
      'UTC',
      'America/New_York',
      'Europe/Berlin',
      'Australia/Lord_Howe',
      'Asia/Kolkata',
      'America/Santiago',
    ];
    const exprs = [
      '0 30 2 * * *',
      '30 1 * * *',
      '*/30 * * * *',
      '0 * * * *',
      '*/20 * 2 * * *',
      '*/30 30 2 * * *',
      '30 2,3 * * *',
      '0 0 L * *',
      '0 0 ? * MON-FRI',
      '15 */7 * * *',
      '0 0 15W * *',
      '0 45 1 ? * 1#1',
    ];
    const starts = ['2026-03-07T00:00:00Z', '2026-10-24T00:00:00Z', '2026-04-03T00:00:00Z', '2026-09-05T00:00:00Z'];

    /** The fires the scheduler would make: job creation's first fire, then planFire's next fire, on time. */
    function planned(def: TriggerDef, from: number, n: number): number[] {
      const job = Object.assign(new JobDefinition(), { ...def, misfirePolicy: MisfirePolicy.FIRE_ONCE_NOW });
      const out: number[] = [];
      let next = computeNextFireTime(def, from);
      while (next !== null && out.length < n) {
        out.push(next);
        job.nextFireTime = next;
        next = planFire(job, next, 5000).nextFireTime;
      }
      return out;
    }

    it.each(zones)('should give the fire times planFire gives for every expression and start in %s', (zone) => {
      for (const expr of exprs)
        for (const start of starts) {
          const from = Date.parse(start);
          const times = previewSchedule(cron(expr, zone), from, 40).map((f) => f.fireTime);
          expect({ expr, start, times }).toEqual({ expr, start, times: planned(cron(expr, zone), from, 40) });
        }
    });

    it('should give the fire times planFire gives for a fixed rate', () => {
      const def = { triggerType: TriggerType.FIXED_RATE, triggerExpr: '5400000', timeZone: 'Europe/Berlin' };
      const from = Date.parse('2026-03-28T22:00:00Z');
      expect(previewSchedule(def, from, 20).map((f) => f.fireTime)).toEqual(planned(def, from, 20));
    });
  });
});

describe(describeFires.name, () => {
  it('should note a fire of a job read without its start when the gap lies within 2 days before it', () => {
    const t = Date.parse('2026-03-08T07:00:00Z');
    const sut = describeFires(cron('*/30 * * * *', 'America/New_York'), [t], null);
    expect(brief(sut)).toEqual(['2026-03-08T03:00:00-04:00 GAP_SKIPPED']);
  });

  it('should not note a later fire of a job read without its start when the gap lies before its first fire', () => {
    const t = Date.parse('2026-03-08T08:30:00Z');
    expect(brief(describeFires(cron('*/30 * * * *', 'America/New_York'), [t], null))).toEqual([
      '2026-03-08T04:30:00-04:00',
    ]);
  });

  it('should describe nothing rather than throw when a stored cron cannot be read', () => {
    const t = Date.parse('2026-03-08T07:00:00Z');
    expect(describeFires(cron('not a cron', 'UTC'), [t], null)).toEqual([
      { fireTime: t, local: '2026-03-08T07:00:00+00:00' },
    ]);
    expect(describeFires(cron('0 * * * *', 'UTC'), [], null)).toEqual([]);
  });
});
