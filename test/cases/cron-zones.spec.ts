/**
 * Next cron fires across clock changes and calendar edge cases (docs/trigger.md "DST rules"), written out as
 * UTC instants and checked twice: against the table, and against the brute-force reference in
 * cron-reference.ts. Then a seeded random sweep compares the schedule layer with the reference.
 */
import { nextFireTimes, validateCron } from '../../src/modules/trigger/schedule/cron-schedule.js';
import { referenceNextFires, transitions, type Transition } from './cron-reference.js';

const ms = (iso: string) => Date.parse(iso);
const isos = (times: number[]) => times.map((t) => new Date(t).toISOString().replace('.000Z', 'Z'));
const HORIZON = 8 * 366 * 86_400_000;

/** [what, expression, zone, now, expected UTC instants] */
type Row = [string, string, string, string, string[]];

const ROWS: Row[] = [
  [
    'UTC has no clock change',
    '30 1 * * *',
    'UTC',
    '2026-03-28T12:00:00Z',
    ['2026-03-29T01:30:00Z', '2026-03-30T01:30:00Z'],
  ],
  [
    'Shanghai is +08:00 all year',
    '30 2 * * *',
    'Asia/Shanghai',
    '2026-03-07T00:00:00Z',
    ['2026-03-07T18:30:00Z', '2026-03-08T18:30:00Z'],
  ],
  [
    'New York gap: fixed 02:30 shifts to 03:30 EDT',
    '30 2 * * *',
    'America/New_York',
    '2026-03-07T12:00:00Z',
    ['2026-03-08T07:30:00Z', '2026-03-09T06:30:00Z'],
  ],
  [
    'New York gap: wildcard */15 at 02 skips the day',
    '*/15 2 * * *',
    'America/New_York',
    '2026-03-08T06:00:00Z',
    ['2026-03-09T06:00:00Z', '2026-03-09T06:15:00Z'],
  ],
  [
    'New York overlap: fixed 01:30 fires at 01:30 EDT only',
    '30 1 * * *',
    'America/New_York',
    '2026-10-31T12:00:00Z',
    ['2026-11-01T05:30:00Z', '2026-11-02T06:30:00Z'],
  ],
  [
    'New York overlap: wildcard */30 at 01 fires in both copies',
    '*/30 1 * * *',
    'America/New_York',
    '2026-11-01T04:00:00Z',
    [
      '2026-11-01T05:00:00Z',
      '2026-11-01T05:30:00Z',
      '2026-11-01T06:00:00Z',
      '2026-11-01T06:30:00Z',
      '2026-11-02T06:00:00Z',
    ],
  ],
  [
    'London gap: 01:30 GMT shifts to 02:30 BST',
    '30 1 * * *',
    'Europe/London',
    '2026-03-28T12:00:00Z',
    ['2026-03-29T01:30:00Z', '2026-03-30T00:30:00Z'],
  ],
  [
    'London overlap: 01:30 fires at 01:30 BST only',
    '30 1 * * *',
    'Europe/London',
    '2026-10-24T12:00:00Z',
    ['2026-10-25T00:30:00Z', '2026-10-26T01:30:00Z'],
  ],
  [
    'London overlap: hourly fires at 01:00 BST and 01:00 GMT',
    '0 * * * *',
    'Europe/London',
    '2026-10-24T23:30:00Z',
    ['2026-10-25T00:00:00Z', '2026-10-25T01:00:00Z', '2026-10-25T02:00:00Z'],
  ],
  [
    'Sydney overlap: 02:30 fires at 02:30 AEDT only',
    '30 2 * * *',
    'Australia/Sydney',
    '2026-04-04T00:00:00Z',
    ['2026-04-04T15:30:00Z', '2026-04-05T16:30:00Z'],
  ],
  [
    'Sydney gap: 02:30 shifts to 03:30 AEDT',
    '30 2 * * *',
    'Australia/Sydney',
    '2026-10-03T00:00:00Z',
    ['2026-10-03T16:30:00Z', '2026-10-04T15:30:00Z'],
  ],
  [
    'Sydney overlap: wildcard */30 at 02 fires four times',
    '*/30 2 * * *',
    'Australia/Sydney',
    '2026-04-04T14:45:00Z',
    [
      '2026-04-04T15:00:00Z',
      '2026-04-04T15:30:00Z',
      '2026-04-04T16:00:00Z',
      '2026-04-04T16:30:00Z',
      '2026-04-05T16:00:00Z',
    ],
  ],
  [
    'Lord Howe 30-min overlap: 02:00 exists once (after 01:30-02:00 repeats)',
    '0 2 * * *',
    'Australia/Lord_Howe',
    '2026-04-03T12:00:00Z',
    ['2026-04-03T15:00:00Z', '2026-04-04T15:30:00Z', '2026-04-05T15:30:00Z'],
  ],
  [
    'Lord Howe 30-min overlap: fixed 01:45 fires at +11:00 only',
    '45 1 * * *',
    'Australia/Lord_Howe',
    '2026-04-04T00:00:00Z',
    ['2026-04-04T14:45:00Z', '2026-04-05T15:15:00Z'],
  ],
  [
    'Lord Howe 30-min overlap: wildcard */15 at 01 repeats 01:30 and 01:45',
    '*/15 1 * * *',
    'Australia/Lord_Howe',
    '2026-04-04T14:00:00Z',
    [
      '2026-04-04T14:15:00Z',
      '2026-04-04T14:30:00Z',
      '2026-04-04T14:45:00Z',
      '2026-04-04T15:00:00Z',
      '2026-04-04T15:15:00Z',
      '2026-04-05T14:30:00Z',
    ],
  ],
  [
    'Lord Howe 30-min gap: fixed 02:15 shifts 30 minutes to 02:45',
    '15 2 * * *',
    'Australia/Lord_Howe',
    '2026-10-03T12:00:00Z',
    ['2026-10-03T15:45:00Z', '2026-10-04T15:15:00Z'],
  ],
  [
    'Lord Howe 30-min gap: wildcard */15 at 02 keeps 02:30 and 02:45 only',
    '*/15 2 * * *',
    'Australia/Lord_Howe',
    '2026-10-03T15:00:00Z',
    ['2026-10-03T15:30:00Z', '2026-10-03T15:45:00Z', '2026-10-04T15:00:00Z'],
  ],
  [
    'Casablanca Ramadan 2026 start (+01 → +00): 02:30 fires at +01 only',
    '30 2 * * *',
    'Africa/Casablanca',
    '2026-02-14T12:00:00Z',
    ['2026-02-15T01:30:00Z', '2026-02-16T02:30:00Z'],
  ],
  [
    'Casablanca Ramadan 2026 start: wildcard */30 at 02 fires four times',
    '*/30 2 * * *',
    'Africa/Casablanca',
    '2026-02-15T00:00:00Z',
    [
      '2026-02-15T01:00:00Z',
      '2026-02-15T01:30:00Z',
      '2026-02-15T02:00:00Z',
      '2026-02-15T02:30:00Z',
      '2026-02-16T02:00:00Z',
    ],
  ],
  [
    'Casablanca Ramadan 2026 end (+00 → +01): 02:30 shifts to 03:30',
    '30 2 * * *',
    'Africa/Casablanca',
    '2026-03-21T12:00:00Z',
    ['2026-03-22T02:30:00Z', '2026-03-23T01:30:00Z'],
  ],
  [
    'Casablanca Ramadan 2026 start: noon moves from 11:00Z to 12:00Z',
    '0 12 * * *',
    'Africa/Casablanca',
    '2026-02-14T00:00:00Z',
    ['2026-02-14T11:00:00Z', '2026-02-15T12:00:00Z'],
  ],
  [
    'Casablanca Ramadan 2026 end: 03:00 is the first wall time after the gap',
    '0 3 * * *',
    'Africa/Casablanca',
    '2026-03-21T12:00:00Z',
    ['2026-03-22T02:00:00Z', '2026-03-23T02:00:00Z'],
  ],
  [
    'Feb 29 at noon in London',
    '0 12 29 2 *',
    'Europe/London',
    '2026-01-01T00:00:00Z',
    ['2028-02-29T12:00:00Z', '2032-02-29T12:00:00Z'],
  ],
  [
    'L: last day of month, 09:00 New York across the March change',
    '0 9 L * *',
    'America/New_York',
    '2026-01-15T00:00:00Z',
    ['2026-01-31T14:00:00Z', '2026-02-28T14:00:00Z', '2026-03-31T13:00:00Z'],
  ],
  [
    'W: 15W in London (Sunday 15 March → Monday 16)',
    '0 8 15W * *',
    'Europe/London',
    '2026-03-01T00:00:00Z',
    ['2026-03-16T08:00:00Z', '2026-04-15T07:00:00Z', '2026-05-15T07:00:00Z'],
  ],
  [
    '#: first Sunday 02:00 in Sydney falls in the October gap',
    '0 2 * * 0#1',
    'Australia/Sydney',
    '2026-09-30T00:00:00Z',
    ['2026-10-03T16:00:00Z', '2026-10-31T15:00:00Z'],
  ],
  [
    '#: first Sunday 01:30 on Lord Howe repeats in April: first occurrence',
    '30 1 * * 0#1',
    'Australia/Lord_Howe',
    '2026-04-01T00:00:00Z',
    ['2026-04-04T14:30:00Z', '2026-05-02T15:00:00Z'],
  ],
  [
    'day rule OR: 13th or Friday (both restricted)',
    '0 0 13 * 5',
    'UTC',
    '2026-01-01T00:00:00Z',
    ['2026-01-02T00:00:00Z', '2026-01-09T00:00:00Z', '2026-01-13T00:00:00Z', '2026-01-16T00:00:00Z'],
  ],
  [
    'day rule AND: odd days that are Fridays (*/2 starts with *)',
    '0 0 */2 * 5',
    'UTC',
    '2026-01-01T00:00:00Z',
    ['2026-01-09T00:00:00Z', '2026-01-23T00:00:00Z', '2026-02-13T00:00:00Z'],
  ],
  [
    'day rule AND: the 13th whatever the weekday (*/1 starts with *)',
    '0 0 13 * */1',
    'UTC',
    '2026-01-01T00:00:00Z',
    ['2026-01-13T00:00:00Z', '2026-02-13T00:00:00Z', '2026-03-13T00:00:00Z'],
  ],
];

describe('cron next fires across clock changes and calendar edges', () => {
  it.each(ROWS)('%s (%s, %s)', (_what, expr, zone, now, expected) => {
    expect(isos(referenceNextFires(expr, zone, ms(now), expected.length, HORIZON))).toEqual(expected);
    expect(isos(nextFireTimes(expr, zone, ms(now), expected.length))).toEqual(expected);
  });
});

const ZONES = [
  'UTC',
  'Asia/Shanghai',
  'America/New_York',
  'Europe/London',
  'Australia/Sydney',
  'Australia/Lord_Howe',
  'Africa/Casablanca',
  'America/Havana',
  'America/Sao_Paulo',
  'Europe/Rome',
  'America/Chicago',
  'Australia/Melbourne',
];
const YEARS: Array<[number, number]> = [
  [Date.UTC(2018, 0, 1), Date.UTC(2019, 0, 1)],
  [Date.UTC(2026, 0, 1), Date.UTC(2028, 0, 1)],
];
const TRANSITIONS = new Map<string, Transition[]>(
  ZONES.map((z) => [z, YEARS.flatMap(([from, to]) => transitions(z, from, to))]),
);

describe('reference assumptions', () => {
  it('should see every offset change of the zones (2018, 2026-2027) on a UTC quarter hour', () => {
    for (const [zone, list] of TRANSITIONS) {
      for (const t of list)
        expect({ zone, at: isos([t.at])[0], quarter: t.at % 900_000 }).toEqual({
          zone,
          at: isos([t.at])[0],
          quarter: 0,
        });
    }
  });

  // Only Ramadan 2026: the tz database changed Morocco later on (2025c, Node 20.20: Ramadan changes in 2027 too;
  // 2026e, Node 22.23 and 24.22: +00 from 2026-09-20 and no change in 2027). The rows above rely on these two.
  it('should find the Casablanca Ramadan changes of 2026 in Intl', () => {
    const list = TRANSITIONS.get('Africa/Casablanca')!.filter(
      (t) => t.at >= Date.UTC(2026, 0, 1) && t.at < Date.UTC(2026, 6, 1),
    );
    const hours = (o: number) => o / 3_600_000;
    expect(list.map((t) => [isos([t.at])[0], hours(t.before), hours(t.after)])).toEqual([
      ['2026-02-15T02:00:00Z', 1, 0],
      ['2026-03-22T02:00:00Z', 0, 1],
    ]);
  });
});

/** mulberry32: a small seeded PRNG, so a failing combination can be replayed. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const FIELD_CHOICES = [
  ['0', '0', '0', '0', '*/20', '30', '15,45'],
  ['0', '30', '15', '45', '*/5', '*/30', '*', '0,30', '5-55/10', '59', '*/20', '10,40', '0-10', 'R'],
  ['*', '0', '1', '2', '3', '23', '1-3', '*/2', '*/12', '0,12', '2,3', '7-23', '12', '0-3', 'R'],
  ['*', '*', '*', '1', '15', 'L', '29', '31', '1,15', '*/3', '2-8', '15W', '1W', 'LW', '?', '4,5', 'R'],
  ['*', '*', '*', '2', '3,4', '10,11', '*/2', 'JAN-MAR', '4', '11', '3-4,10'],
  ['*', '*', '*', '0', '1-5', '5L', '5#2', 'MON', 'SAT,SUN', '?', '*/2', '4', '0#1', '7'],
];
const RANDOM_MAX = [59, 59, 23, 28];

/** A random 6-field expression; `R` picks a random single value (seconds, minutes, hours, day-of-month). */
function randomExpression(r: () => number): string {
  const pick = (choices: string[], i: number) => {
    const c = choices[Math.floor(r() * choices.length)];
    return c === 'R' ? String(Math.floor(r() * RANDOM_MAX[i]) + (i === 3 ? 1 : 0)) : c;
  };
  const fields = FIELD_CHOICES.map(pick);
  return fields[3] === '?' && fields[5] === '?' ? fields.join(' ').replace(/\?$/, '*') : fields.join(' ');
}

/** Mostly just before a clock change of the zone (up to 2 days), else anywhere in 2026-2027. */
function randomStart(r: () => number, zone: string): number {
  const list = TRANSITIONS.get(zone)!;
  const jitter = Math.floor(r() * 2 * 86_400) * 1000 + Math.floor(r() * 1000);
  if (list.length > 0 && r() < 0.8) return list[Math.floor(r() * list.length)].at - jitter;
  return Date.UTC(2026, 0, 1) + Math.floor(r() * 730 * 86_400) * 1000 + Math.floor(r() * 1000);
}

describe('random expressions, zones and starts against the reference (seeded)', () => {
  const SEED = 20_260_101;
  const COUNT = 300;

  it(`should agree with the reference on ${COUNT} combinations (seed ${SEED})`, () => {
    const r = prng(SEED);
    const mismatches: unknown[] = [];
    let compared = 0;
    for (let i = 0; i < COUNT; i++) {
      const [expr, zone] = [randomExpression(r), ZONES[Math.floor(r() * ZONES.length)]];
      const start = randomStart(r, zone);
      try {
        validateCron(expr, zone);
      } catch {
        continue; // e.g. 31 in February only: rejected as never firing, nothing to compare
      }
      const expected = referenceNextFires(expr, zone, start, 5, HORIZON);
      if (expected.length < 5) continue; // too rare for the reference window
      compared++;
      const actual = nextFireTimes(expr, zone, start, 5);
      if (isos(actual).join() !== isos(expected).join()) {
        mismatches.push({
          expr,
          zone,
          start: new Date(start).toISOString(),
          actual: isos(actual),
          expected: isos(expected),
        });
      }
    }
    expect(mismatches).toEqual([]);
    expect(compared).toBeGreaterThan(COUNT * 0.9);
  });
});
