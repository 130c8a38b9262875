import { ValidationError } from '../../../common/index.js';
import { ScheduleError } from './cron-schedule.js';
import {
  computeNextFireTime,
  MAX_INTERVAL_MS,
  peakFiresPerMinute,
  previewFireTimes,
  TriggerType,
  validateTrigger,
  type TriggerDef,
} from './schedule.js';

const ms = (iso: string) => Date.parse(iso);
const isos = (times: number[]) => times.map((t) => new Date(t).toISOString());
const def = (triggerType: TriggerType | string, triggerExpr: string | null, timeZone?: string | null): TriggerDef => ({
  triggerType,
  triggerExpr,
  timeZone,
});

function fieldOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return (err as ValidationError).field;
  }
  throw new Error('expected a ValidationError');
}

describe(computeNextFireTime.name, () => {
  it('should compute the cron time in the definition zone when the type is CRON', () => {
    const sut = computeNextFireTime(def(TriggerType.CRON, '0 9 * * *', 'Asia/Shanghai'), ms('2026-01-01T00:00:00Z'));
    expect(sut).toBe(ms('2026-01-01T01:00:00Z'));
  });

  it('should use UTC when the definition has no zone', () => {
    expect(computeNextFireTime(def(TriggerType.CRON, '0 9 * * *', null), ms('2026-01-01T00:00:00Z'))).toBe(
      ms('2026-01-01T09:00:00Z'),
    );
    expect(computeNextFireTime(def(TriggerType.CRON, '0 9 * * *', ''), ms('2026-01-01T00:00:00Z'))).toBe(
      ms('2026-01-01T09:00:00Z'),
    );
  });

  it('should add the period to the previous fire time when the type is FIXED_RATE', () => {
    const rate = def(TriggerType.FIXED_RATE, '3600000');
    const fires = [ms('2026-01-05T08:10:00Z')];
    for (let i = 0; i < 4; i++) fires.push(computeNextFireTime(rate, fires[i]) as number);
    expect(isos(fires)).toEqual([
      '2026-01-05T08:10:00.000Z',
      '2026-01-05T09:10:00.000Z',
      '2026-01-05T10:10:00.000Z',
      '2026-01-05T11:10:00.000Z',
      '2026-01-05T12:10:00.000Z',
    ]);
  });

  it('should add the delay to the previous finish when the type is FIXED_DELAY', () => {
    const sut = computeNextFireTime(def(TriggerType.FIXED_DELAY, '60000'), ms('2026-01-05T09:29:30Z'));
    expect(sut).toBe(ms('2026-01-05T09:30:30Z'));
  });

  it('should return the instant when a ONE_SHOT is still ahead, and null once it has passed', () => {
    const once = def(TriggerType.ONE_SHOT, '2026-12-01T10:00:00Z');
    expect(computeNextFireTime(once, ms('2026-11-30T00:00:00Z'))).toBe(ms('2026-12-01T10:00:00Z'));
    expect(computeNextFireTime(once, ms('2026-12-01T10:00:00Z'))).toBeNull();
  });

  it('should honour the offset and fractions when a ONE_SHOT is written with an offset', () => {
    const sut = computeNextFireTime(def(TriggerType.ONE_SHOT, '2026-12-01T18:00:00.25+08:00'), 0);
    expect(sut).toBe(ms('2026-12-01T10:00:00.250Z'));
    expect(computeNextFireTime(def(TriggerType.ONE_SHOT, '2026-12-01T05:30-04:30'), 0)).toBe(
      ms('2026-12-01T10:00:00Z'),
    );
  });

  it('should return null when the type is API', () => {
    expect(computeNextFireTime(def(TriggerType.API, null), 0)).toBeNull();
  });

  it.each(['0 0 * 2 4#5', '0 0 */2 2 4#5'])(
    'should throw a ScheduleError when the stored cron %s has no fire within the 8-year horizon',
    (expr) => {
      // A fifth Thursday in February needs a leap year starting on Thursday: 2024-02-29, then 2052-02-29.
      const rare = def(TriggerType.CRON, expr);
      expect(() => validateTrigger(rare)).not.toThrow();
      expect(computeNextFireTime(rare, ms('2024-01-01T00:00:00Z'))).toBe(ms('2024-02-29T00:00:00Z'));
      expect(() => computeNextFireTime(rare, ms('2024-03-01T00:00:00Z'))).toThrow(ScheduleError);
    },
  );
});

describe(previewFireTimes.name, () => {
  const from = ms('2026-01-01T00:00:00Z');

  it('should list the next cron fires when the type is CRON', () => {
    const sut = previewFireTimes(def(TriggerType.CRON, '0 0 29 2 *'), from, 2);
    expect(isos(sut)).toEqual(['2028-02-29T00:00:00.000Z', '2032-02-29T00:00:00.000Z']);
  });

  it('should step by the period from fromMs when the type is FIXED_RATE', () => {
    expect(previewFireTimes(def(TriggerType.FIXED_RATE, '1000'), from, 3)).toEqual([
      from + 1000,
      from + 2000,
      from + 3000,
    ]);
  });

  it('should assume zero run time when the type is FIXED_DELAY', () => {
    expect(previewFireTimes(def(TriggerType.FIXED_DELAY, '60000'), from, 2)).toEqual([from + 60_000, from + 120_000]);
  });

  it('should give at most one time for ONE_SHOT and none for API', () => {
    expect(previewFireTimes(def(TriggerType.ONE_SHOT, '2026-12-01T10:00:00Z'), from, 5)).toEqual([
      ms('2026-12-01T10:00:00Z'),
    ]);
    expect(previewFireTimes(def(TriggerType.ONE_SHOT, '2025-12-01T10:00:00Z'), from, 5)).toEqual([]);
    expect(previewFireTimes(def(TriggerType.API, null), from, 5)).toEqual([]);
  });
});

describe(validateTrigger.name, () => {
  it.each<[TriggerType, string | null]>([
    [TriggerType.CRON, '*/5 * * * * *'],
    [TriggerType.FIXED_RATE, '1000'],
    [TriggerType.FIXED_DELAY, String(MAX_INTERVAL_MS)],
    [TriggerType.ONE_SHOT, '2026-12-01T10:00:00Z'],
    [TriggerType.API, null],
  ])('should accept %s with %s', (type, expr) => {
    expect(() => validateTrigger(def(type, expr, 'Europe/London'))).not.toThrow();
  });

  it.each<[TriggerType, string | null]>([
    [TriggerType.CRON, '0 0 30 2 *'],
    [TriggerType.CRON, null],
    [TriggerType.FIXED_RATE, '999'],
    [TriggerType.FIXED_RATE, String(MAX_INTERVAL_MS + 1)],
    [TriggerType.FIXED_DELAY, '1e4'],
    [TriggerType.FIXED_DELAY, '-5000'],
    [TriggerType.FIXED_RATE, '60s'],
    [TriggerType.ONE_SHOT, '2026-12-01T10:00:00'],
    [TriggerType.ONE_SHOT, '2026-02-30T10:00:00Z'],
    [TriggerType.ONE_SHOT, '2026-12-01 10:00:00Z'],
    [TriggerType.ONE_SHOT, '2026-12-01T24:00:00Z'],
    [TriggerType.API, '0 0 * * *'],
  ])('should reject %s with %s naming triggerExpr', (type, expr) => {
    expect(fieldOf(() => validateTrigger(def(type, expr)))).toBe('triggerExpr');
  });

  it('should name timeZone when the zone is unknown, whatever the type', () => {
    expect(fieldOf(() => validateTrigger(def(TriggerType.CRON, '0 0 * * *', 'America/New York')))).toBe('timeZone');
    expect(fieldOf(() => validateTrigger(def(TriggerType.FIXED_RATE, '1000', '+05:30')))).toBe('timeZone');
  });

  it('should name triggerType when the type is unknown', () => {
    expect(fieldOf(() => validateTrigger(def('HOURLY', '1000')))).toBe('triggerType');
  });
});

describe(peakFiresPerMinute.name, () => {
  it('should count the values of a cron seconds field (1 for 5 fields), whatever the other fields', () => {
    expect(peakFiresPerMinute(def(TriggerType.CRON, '*/5 * * * *'))).toBe(1);
    expect(peakFiresPerMinute(def(TriggerType.CRON, '0 0 1 1 *'))).toBe(1);
    expect(peakFiresPerMinute(def(TriggerType.CRON, '* * * * * *'))).toBe(60);
    expect(peakFiresPerMinute(def(TriggerType.CRON, '*/5 0 3 * * MON', 'Europe/London'))).toBe(12);
    expect(peakFiresPerMinute(def(TriggerType.CRON, '0,30 * * * * *'))).toBe(2);
    expect(peakFiresPerMinute(def(TriggerType.CRON, '10-19 */2 * * * *'))).toBe(10);
  });

  it('should round 60000 / period up for FIXED_RATE and FIXED_DELAY', () => {
    expect(peakFiresPerMinute(def(TriggerType.FIXED_RATE, '1000'))).toBe(60);
    expect(peakFiresPerMinute(def(TriggerType.FIXED_RATE, '7000'))).toBe(9);
    expect(peakFiresPerMinute(def(TriggerType.FIXED_DELAY, '60000'))).toBe(1);
    expect(peakFiresPerMinute(def(TriggerType.FIXED_DELAY, '3600000'))).toBe(1);
  });

  it('should count 1 for ONE_SHOT and 0 for API', () => {
    expect(peakFiresPerMinute(def(TriggerType.ONE_SHOT, '2030-01-01T00:00:00Z'))).toBe(1);
    expect(peakFiresPerMinute(def(TriggerType.API, ''))).toBe(0);
  });

  it('should name the field of an invalid definition', () => {
    expect(fieldOf(() => peakFiresPerMinute(def(TriggerType.CRON, '61 * * * * *')))).toBe('triggerExpr');
    expect(fieldOf(() => peakFiresPerMinute(def(TriggerType.FIXED_RATE, '10')))).toBe('triggerExpr');
  });
});
