/** test/fixtures/time-cases.md: the rows of input that must be refused, each a ValidationError naming the field. */
import { TriggerType } from '../../src/modules/metadata/index.js';
import { computeNextFireTime, validateTrigger } from '../../src/modules/trigger/schedule/schedule.js';
import { measured } from '../utils/measured.js';
import { fieldOfRejection, rejectCron } from './time-case-helpers.js';

describe('time-cases.md: rejected input', () => {
  it.each(['Americas/Vancouver', 'America/New York', 'Mars/Olympus', '+05:30'])(
    'BC-04 (zone) rejects %s naming timeZone',
    (zone) => {
      expect(rejectCron('0 0 * * *', zone)).toBe('timeZone');
    },
  );

  it.each(['America/Vancouver', 'Etc/GMT-8', 'UTC'])('BC-04 (zone) accepts %s', (zone) => {
    expect(() =>
      validateTrigger({ triggerType: TriggerType.CRON, triggerExpr: '0 0 * * *', timeZone: zone }),
    ).not.toThrow();
  });

  it('BC-04 (stored zone) an invalid stored zone is never computed: ValidationError naming timeZone', () => {
    expect(
      fieldOfRejection(() =>
        computeNextFireTime({ triggerType: TriggerType.CRON, triggerExpr: '0 0 * * *', timeZone: 'Mars/Olympus' }, 0),
      ),
    ).toBe('timeZone');
  });

  it('BC-06 (h) impossible dates are rejected naming triggerExpr within 100 ms', () => {
    for (const expr of ['0 0 30 2 *', '0 0 31 4,6,9,11 *', '0 0 30,31 2 *', '0 0 31 2,4 *']) {
      const call = measured(() => rejectCron(expr));
      expect(call.value).toBe('triggerExpr');
      expect(call.cpuMs).toBeLessThan(100);
      expect(call.wallMs).toBeLessThan(1000);
    }
  });

  it('BC-06 (l) L-2 is not supported: rejected naming triggerExpr', () => {
    expect(rejectCron('0 0 L-2 * *')).toBe('triggerExpr');
  });

  it.each([
    '',
    '* * * *',
    '20 15 * *',
    '* * * * * * *',
    '*/0 * * * *',
    '60 * * * *',
    '0 24 * * *',
    '0 0 32 * *',
    '0 0 * 13 *',
    '0 0 * * 8',
    '5-1 * * * *',
    '/5 * * * *',
    '5/2x * * * *',
    '1,2,,3 * * * *',
  ])("BC-07 (rejected) '%s' names triggerExpr", (expr) => {
    expect(rejectCron(expr)).toBe('triggerExpr');
  });
});
