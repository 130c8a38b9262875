import { CronEvaluator, type CronFields } from './cron-evaluator.js';
import { measured } from '../../../../test/utils/measured.js';

const ms = (iso: string) => Date.parse(iso);
const isos = (times: number[]) => times.map((t) => new Date(t).toISOString().replace('.000Z', 'Z'));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const EVERY_DAY = {
  and: true,
  months: new Set(range(1, 12)),
  domDays: new Set(range(1, 31)),
  domLast: false,
  weekdayNear: null,
  dowDays: new Set(range(0, 6)),
  dowLast: new Set<number>(),
  nth: 0,
};

function fields(minutes: number[], hours: number[], fixedTime: boolean): CronFields {
  return { seconds: [0], minutes, hours, days: EVERY_DAY, fixedTime };
}

function fires(sut: CronEvaluator, from: string, n: number): string[] {
  const out: number[] = [];
  let cursor = ms(from);
  for (let i = 0; i < n; i++) out.push((cursor = sut.next(cursor, cursor + 86_400_000 * 400) as number));
  return isos(out);
}

describe(CronEvaluator.name, () => {
  it('should fire a fixed-time job once, at the first occurrence, when its wall time repeats', () => {
    const sut = new CronEvaluator(fields([0], [0], true), 'America/Havana');
    expect(fires(sut, '2024-11-02T12:00:00Z', 2)).toEqual(['2024-11-03T04:00:00Z', '2024-11-04T05:00:00Z']);
  });

  it('should fire a wildcard job at both instants when its wall time repeats', () => {
    const sut = new CronEvaluator(fields([0, 30], [0], false), 'America/Havana');
    expect(fires(sut, '2024-11-03T03:00:00Z', 4)).toEqual([
      '2024-11-03T04:00:00Z',
      '2024-11-03T04:30:00Z',
      '2024-11-03T05:00:00Z',
      '2024-11-03T05:30:00Z',
    ]);
  });

  it('should shift a fixed-time job by the gap and skip a wildcard one when the wall time does not exist', () => {
    const fixed = new CronEvaluator(fields([15], [2], true), 'Australia/Lord_Howe');
    const wildcard = new CronEvaluator(fields([15], [2], false), 'Australia/Lord_Howe');
    expect(fires(fixed, '2026-10-03T12:00:00Z', 1)).toEqual(['2026-10-03T15:45:00Z']);
    expect(fires(wildcard, '2026-10-03T12:00:00Z', 1)).toEqual(['2026-10-04T15:15:00Z']);
  });

  it('should compute 02:00 on Lord Howe across the April change without spinning', () => {
    const { value, cpuMs, wallMs } = measured(() =>
      fires(new CronEvaluator(fields([0], [2], true), 'Australia/Lord_Howe'), '2026-04-03T12:00:00Z', 3),
    );
    expect(value).toEqual(['2026-04-03T15:00:00Z', '2026-04-04T15:30:00Z', '2026-04-05T15:30:00Z']);
    expect(cpuMs).toBeLessThan(100); // CPU time: a loaded machine preempting the test does not count
    expect(wallMs).toBeLessThan(1000);
  });

  it('should return null when no fire falls before the limit', () => {
    const feb29 = { ...EVERY_DAY, months: new Set([2]), domDays: new Set([29]) };
    const sut = new CronEvaluator({ seconds: [0], minutes: [0], hours: [0], days: feb29, fixedTime: true }, 'UTC');
    expect(sut.next(ms('2026-03-01T00:00:00Z'), ms('2027-12-31T00:00:00Z'))).toBeNull();
    expect(sut.next(ms('2026-03-01T00:00:00Z'), ms('2028-12-31T00:00:00Z'))).toBe(ms('2028-02-29T00:00:00Z'));
  });
});
