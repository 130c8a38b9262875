/**
 * test/fixtures/time-cases.md (a copy of the workspace's reference cases), one test per table row (BC-01 … BC-09):
 * here the next fire times, strictly after "now", instants in UTC. The rows of rejected input are in
 * time-cases-rejected.spec.ts (a ValidationError naming the field, HTTP 400 at the API), the misfire rows (BC-09)
 * in time-cases-misfire.spec.ts.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TriggerType } from '../../src/modules/metadata/index.js';
import { nextFireTimes, validateCron } from '../../src/modules/trigger/schedule/cron-schedule.js';
import { computeNextFireTime } from '../../src/modules/trigger/schedule/schedule.js';
import { measured } from '../utils/measured.js';
import { at, isos, midnights, ms } from './time-case-helpers.js';

/** [case, expression, zone, now, expected] — checked with nextFireTimes(expr, zone, now, expected.length). */
type Row = [string, string, string, string, string[]];

const NEXT_FIRE_ROWS: Row[] = [
  [
    'BC-01 (a) Sunday 08:00 in Chicago is not pushed a week by spring-forward',
    '0 8 * * 0',
    'America/Chicago',
    '2026-03-08T05:45:00Z',
    ['2026-03-08', '2026-03-15', '2026-03-22', '2026-03-29', '2026-04-05'].map((d) => `${d}T13:00:00Z`),
  ],
  [
    'BC-01 (d) 02:30 inside the Rome gap moves to 03:30 CEST',
    '30 2 * * 0',
    'Europe/Rome',
    '2025-03-28T23:59:59Z',
    ['2025-03-30T01:30:00Z', '2025-04-06T00:30:00Z', '2025-04-13T00:30:00Z'],
  ],
  [
    'BC-01 (e) 03:00 right after the Rome gap',
    '0 3 * * 0',
    'Europe/Rome',
    '2025-03-28T23:59:59Z',
    ['2025-03-30T01:00:00Z', '2025-04-06T01:00:00Z', '2025-04-13T01:00:00Z'],
  ],
  [
    'BC-02 (a) daily 02:30 New York fires at 03:30 EDT on the gap day',
    '30 2 * * *',
    'America/New_York',
    '2021-03-13T12:00:00Z',
    [
      '2021-03-14T07:30:00Z',
      '2021-03-15T06:30:00Z',
      '2021-03-16T06:30:00Z',
      '2021-03-17T06:30:00Z',
      '2021-03-18T06:30:00Z',
    ],
  ],
  [
    'BC-02 (c) 01:00 and 01:30 New York fire once each on the fall-back day',
    '0,30 1 * * *',
    'America/New_York',
    '2021-11-06T12:00:00Z',
    ['2021-11-07T05:00:00Z', '2021-11-07T05:30:00Z', '2021-11-08T06:00:00Z', '2021-11-08T06:30:00Z'],
  ],
  [
    'BC-02 (d) */30 in Melbourne fires in both copies of the repeated hour',
    '*/30 * * * *',
    'Australia/Melbourne',
    '2024-04-06T14:45:00Z',
    at('2024-04-06', '15:00', '15:30', '16:00', '16:30', '17:00'),
  ],
  [
    'BC-02 (e) 30 * * * * New York fires at 01:30 EDT and 01:30 EST',
    '30 * * * *',
    'America/New_York',
    '2021-11-07T04:00:00Z',
    at('2021-11-07', '04:30', '05:30', '06:30', '07:30'),
  ],
  [
    'BC-02 (f) hourly Chicago skips the missing 02:00, no duplicate 03:00',
    '0 * * * *',
    'America/Chicago',
    '2026-03-08T06:30:00Z',
    at('2026-03-08', '07:00', '08:00', '09:00'),
  ],
  [
    'BC-04 (a) 01:00 on Nov 4 in Sao Paulo, 6 fields, across the end of Brazilian DST',
    '0 0 1 4 11 *',
    'America/Sao_Paulo',
    '2018-11-04T02:00:00Z',
    ['2018-11-04T03:00:00Z', '2019-11-04T04:00:00Z', '2020-11-04T04:00:00Z'],
  ],
  [
    'BC-04 (b) the 10th at 09:00 in Sao Paulo stays in November',
    '0 9 10 * *',
    'America/Sao_Paulo',
    '2018-10-17T12:00:00Z',
    [
      '2018-11-10T11:00:00Z',
      '2018-12-10T11:00:00Z',
      '2019-01-10T11:00:00Z',
      '2019-02-10T11:00:00Z',
      '2019-03-10T12:00:00Z',
    ],
  ],
  [
    'BC-04 (c) missing midnight in Sao Paulo fires at 01:00 -02',
    '0 0 * * *',
    'America/Sao_Paulo',
    '2018-11-03T12:00:00Z',
    ['2018-11-04T03:00:00Z', '2018-11-05T02:00:00Z', '2018-11-06T02:00:00Z'],
  ],
  [
    'BC-04 (d) midnight at the Sao Paulo fall-back is the new day, never 23:00',
    '0 0 * * *',
    'America/Sao_Paulo',
    '2018-02-17T02:05:00Z',
    ['2018-02-18T03:00:00Z', '2018-02-19T03:00:00Z', '2018-02-20T03:00:00Z'],
  ],
  [
    'BC-04 (e) repeated 23:00 in Sao Paulo fires once, at the first occurrence',
    '0 23 * * *',
    'America/Sao_Paulo',
    '2018-02-17T12:00:00Z',
    ['2018-02-18T01:00:00Z', '2018-02-19T02:00:00Z', '2018-02-20T02:00:00Z'],
  ],
  [
    'BC-04 (f) repeated midnight in Havana fires once, at the first occurrence',
    '0 0 * * *',
    'America/Havana',
    '2024-11-02T12:00:00Z',
    ['2024-11-03T04:00:00Z', '2024-11-04T05:00:00Z', '2024-11-05T05:00:00Z'],
  ],
  [
    'BC-05 (a) 2-8 OR Thursday',
    '0 5 2-8 * 4',
    'UTC',
    '2021-01-09T17:48:39Z',
    ['2021-01-14', '2021-01-21', '2021-01-28', '2021-02-02', '2021-02-03', '2021-02-04'].map((d) => `${d}T05:00:00Z`),
  ],
  [
    'BC-05 (b) second Thursday with 4#2',
    '0 5 * * 4#2',
    'UTC',
    '2021-01-09T17:48:39Z',
    ['2021-01-14', '2021-02-11', '2021-03-11', '2021-04-08'].map((d) => `${d}T05:00:00Z`),
  ],
  [
    'BC-05 (c) crontab(5) example 1,15 OR Friday',
    '0 0 1,15 * 5',
    'UTC',
    '2026-01-01T00:00:00Z',
    midnights('2026-01-02', '2026-01-09', '2026-01-15', '2026-01-16', '2026-01-23', '2026-01-30'),
  ],
  [
    'BC-05 (d) */3 AND Monday-Friday (Vixie)',
    '0 0 */3 * 1-5',
    'UTC',
    '2024-04-01T00:00:01Z',
    midnights('2024-04-04', '2024-04-10', '2024-04-16', '2024-04-19', '2024-04-22', '2024-04-25'),
  ],
  [
    'BC-06 (a) L: last day of each month',
    '0 0 L * *',
    'UTC',
    '2024-01-15T00:00:00Z',
    midnights('2024-01-31', '2024-02-29', '2024-03-31', '2024-04-30', '2024-05-31'),
  ],
  [
    'BC-06 (b) 6 fields, L in October',
    '0 0 0 L 10 *',
    'UTC',
    '2025-04-03T00:00:00Z',
    midnights('2025-10-31', '2026-10-31', '2027-10-31'),
  ],
  [
    'BC-06 (c) 5L: last Friday',
    '0 0 * * 5L',
    'UTC',
    '2026-01-01T00:00:00Z',
    midnights('2026-01-30', '2026-02-27', '2026-03-27'),
  ],
  [
    'BC-06 (d) 5#2: second Friday',
    '0 0 * * 5#2',
    'UTC',
    '2026-01-01T00:00:00Z',
    midnights('2026-01-09', '2026-02-13', '2026-03-13'),
  ],
  [
    'BC-06 (e) Feb 29 every leap year',
    '0 0 29 2 *',
    'UTC',
    '2026-03-01T00:00:00Z',
    midnights('2028-02-29', '2032-02-29', '2036-02-29', '2040-02-29', '2044-02-29'),
  ],
  [
    'BC-06 (f) Feb 29 when now is exactly a fire',
    '0 0 29 2 *',
    'UTC',
    '2028-02-29T00:00:00Z',
    midnights('2032-02-29', '2036-02-29'),
  ],
  [
    'BC-06 (g) 31st of Jan or Feb: only January',
    '0 0 31 1,2 *',
    'UTC',
    '2026-01-01T00:00:00Z',
    midnights('2026-01-31', '2027-01-31', '2028-01-31'),
  ],
  [
    'BC-06 (i) 15W: nearest weekday to the 15th',
    '0 0 15W * *',
    'UTC',
    '2026-01-01T00:00:00Z',
    midnights('2026-01-15', '2026-02-16', '2026-03-16', '2026-04-15', '2026-05-15'),
  ],
  [
    'BC-06 (j) 1W never goes back into the previous month',
    '0 0 1W * *',
    'UTC',
    '2026-07-15T00:00:00Z',
    midnights('2026-08-03', '2026-09-01', '2026-10-01', '2026-11-02', '2026-12-01'),
  ],
  [
    'BC-06 (k) LW: last weekday of the month',
    '0 0 LW * *',
    'UTC',
    '2026-01-01T00:00:00Z',
    midnights('2026-01-30', '2026-02-27', '2026-03-31', '2026-04-30', '2026-05-29'),
  ],
  [
    'BC-07 (a) 5/10 in the minute field of 6 fields',
    '0 5/10 * * * *',
    'UTC',
    '2026-01-01T10:00:00Z',
    at('2026-01-01', '10:05', '10:15', '10:25', '10:35', '10:45'),
  ],
  [
    'BC-07 (b) 1/2 in the minute field of 6 fields',
    '0 1/2 * * * *',
    'UTC',
    '2026-01-01T10:00:00Z',
    at('2026-01-01', '10:01', '10:03', '10:05', '10:07', '10:09'),
  ],
  [
    'BC-07 (c) 15-45/10',
    '15-45/10 * * * *',
    'UTC',
    '2026-01-01T10:00:00Z',
    at('2026-01-01', '10:15', '10:25', '10:35', '10:45', '11:15'),
  ],
  [
    'BC-07 (d) 1-9/2',
    '1-9/2 * * * *',
    'UTC',
    '2026-01-01T10:00:00Z',
    at('2026-01-01', '10:01', '10:03', '10:05', '10:07', '10:09', '11:01'),
  ],
  [
    'BC-07 (e) */20 seconds',
    '*/20 * * * * *',
    'UTC',
    '2026-01-01T10:00:00Z',
    at('2026-01-01', '10:00:20', '10:00:40', '10:01:00', '10:01:20', '10:01:40'),
  ],
  [
    'BC-07 (f) ? and MON-FRI',
    '0 0 0 ? * MON-FRI',
    'UTC',
    '2026-01-01T00:00:00Z',
    midnights('2026-01-02', '2026-01-05', '2026-01-06'),
  ],
];

describe('time-cases.md: next fire times', () => {
  it.each(NEXT_FIRE_ROWS)('%s', (_name, expr, zone, now, expected) => {
    expect(isos(nextFireTimes(expr, zone, ms(now), expected.length))).toEqual(expected);
    // The definition-level entry point agrees on the first fire.
    expect(computeNextFireTime({ triggerType: TriggerType.CRON, triggerExpr: expr, timeZone: zone }, ms(now))).toBe(
      ms(expected[0]),
    );
  });

  it.each([
    ['BC-01 (b) Sunday 05:00 Rome with an end date: one fire, then none', '0 5 * * 0'],
    ['BC-01 (c) the same with 7 for Sunday', '0 5 * * 7'],
  ])('%s', (_name, expr) => {
    const endDate = ms('2025-03-31T00:00:00Z');
    const [first, second] = nextFireTimes(expr, 'Europe/Rome', ms('2025-03-28T23:59:59Z'), 2);
    expect(isos([first])).toEqual(['2025-03-30T03:00:00Z']);
    expect(second).toBeGreaterThan(endDate); // hasNext() within the end date is false
  });

  it('BC-01 (also) package.json pins cron-parser to >= 5.6.0', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const [major, minor] = pkg.dependencies['cron-parser']
      .replace(/^[\^~]/, '')
      .split('.')
      .map(Number);
    expect(major > 5 || (major === 5 && minor >= 6)).toBe(true);
  });

  it('BC-02 (b) daily 01:30 New York fires at 01:30 EDT only on the fall-back day', () => {
    const sut = isos(nextFireTimes('30 1 * * *', 'America/New_York', ms('2021-11-06T12:00:00Z'), 5));
    expect(sut).toEqual([
      '2021-11-07T05:30:00Z',
      '2021-11-08T06:30:00Z',
      '2021-11-09T06:30:00Z',
      '2021-11-10T06:30:00Z',
      '2021-11-11T06:30:00Z',
    ]);
    expect(sut).not.toContain('2021-11-07T06:30:00Z');
  });

  it('BC-04 (g) 17:01 on the 21st-27th in Sao Paulo, each call under 50 ms', () => {
    const expr = '0 1 17 21,22,23,24,25,26,27 * *';
    let cursor = ms('2018-09-29T03:00:01Z');
    const out: number[] = [];
    for (let i = 0; i < 3; i++) {
      const call = measured(() => nextFireTimes(expr, 'America/Sao_Paulo', cursor, 1)[0]);
      expect(call.cpuMs).toBeLessThan(50);
      expect(call.wallMs).toBeLessThan(1000);
      cursor = call.value;
      out.push(cursor);
    }
    expect(isos(out)).toEqual(['2018-10-21T20:01:00Z', '2018-10-22T20:01:00Z', '2018-10-23T20:01:00Z']);
  });

  it.each(['Europe/London', 'America/New_York'])(
    'BC-04 (h) UTC jobs ignore the host TZ (child process with TZ=%s)',
    (host) => {
      // Jest sandboxes process.env, so the host zone is set on a child run of host-tz.probe.ts (unit project only:
      // the e2e project would build dist/ first).
      const jest = fileURLToPath(new URL('../../node_modules/jest/bin/jest.js', import.meta.url));
      const args = [
        '--experimental-vm-modules',
        '--no-warnings',
        jest,
        '--ci',
        '--selectProjects',
        'unit',
        '--testMatch',
        '**/test/cases/host-tz.probe.ts',
      ];
      const run = spawnSync(process.execPath, args, {
        env: { ...process.env, TZ: host },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(`${run.stderr}`).toContain(`probe under host TZ=${host}`);
      expect(run.status).toBe(0);
    },
  );

  it('BC-05 (e) 30 Feb OR Monday in February is accepted and fires on the Mondays', () => {
    expect(() => validateCron('0 0 30 2 1', 'UTC')).not.toThrow();
    expect(isos(nextFireTimes('0 0 30 2 1', 'UTC', ms('2026-01-01T00:00:00Z'), 3))).toEqual(
      midnights('2026-02-02', '2026-02-09', '2026-02-16'),
    );
  });
});
