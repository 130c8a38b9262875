/**
 * Run by time-cases.spec.ts (BC-04 h) in a child Jest process started with a host `TZ`; not matched by
 * the normal test run. Checks that the host zone really is in force and that UTC jobs ignore it.
 */
import { nextFireTimes } from '../../src/modules/trigger/schedule/cron-schedule.js';

it(`BC-04 (h) probe under host TZ=${process.env.TZ}`, () => {
  expect(new Date(Date.parse('2022-07-01T00:00:00Z')).getTimezoneOffset()).not.toBe(0);
  const exprs = ['59 0 * * *', '0 1 * * *', '1 1 * * *', '30 1 * * *', '59 1 * * *', '0 2 * * *'];
  const sut = exprs.map((e) =>
    new Date(nextFireTimes(e, 'UTC', Date.parse('2022-10-29T23:50:54Z'), 1)[0]).toISOString(),
  );
  const expected = ['00:59', '01:00', '01:01', '01:30', '01:59', '02:00'].map((t) => `2022-10-30T${t}:00.000Z`);
  expect(sut).toEqual(expected);
});
