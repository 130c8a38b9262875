import { jest } from '@jest/globals';
import { SchedulerError, ValidationError } from '../../../common/index.js';
import { CronEvaluator } from './cron-evaluator.js';
import { nextFireTimes, ScheduleError, validateCron } from './cron-schedule.js';
import { measured } from '../../../../test/utils/measured.js';

const ms = (iso: string) => Date.parse(iso);
const isos = (times: number[]) => times.map((t) => new Date(t).toISOString().replace('.000Z', 'Z'));
/** Dates at midnight UTC, written as `2026-01-05`. */
const midnights = (...days: string[]) => days.map((d) => `${d}T00:00:00Z`);

function validationErrorOf(fn: () => unknown): ValidationError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return err as ValidationError;
  }
  throw new Error('expected a ValidationError');
}

describe(nextFireTimes.name, () => {
  describe('fields', () => {
    it('should fire every 5 seconds when a leading seconds field is given', () => {
      const sut = nextFireTimes('*/5 * * * * *', 'UTC', ms('2026-01-01T10:00:00Z'), 3);
      expect(isos(sut)).toEqual(['2026-01-01T10:00:05Z', '2026-01-01T10:00:10Z', '2026-01-01T10:00:15Z']);
    });

    it('should round a sub-second start up and stay strictly after it when afterMs has milliseconds', () => {
      const sut = nextFireTimes('*/5 * * * * *', 'UTC', ms('2026-01-01T10:00:05.001Z'), 2);
      expect(isos(sut)).toEqual(['2026-01-01T10:00:10Z', '2026-01-01T10:00:15Z']);
    });

    it('should exclude afterMs itself when afterMs is exactly a fire time', () => {
      const sut = nextFireTimes('0 0 29 2 *', 'UTC', ms('2028-02-29T00:00:00Z'), 2);
      expect(isos(sut)).toEqual(midnights('2032-02-29', '2036-02-29'));
    });

    it.each([
      ['0 5/10 * * * *', ['10:05', '10:15', '10:25', '10:35', '10:45']],
      ['15-45/10 * * * *', ['10:15', '10:25', '10:35', '10:45', '11:15']],
      ['1-9/2 * * * *', ['10:01', '10:03', '10:05', '10:07', '10:09']],
    ])('should step from the range start when the expression is %s', (expr, hhmm) => {
      const sut = nextFireTimes(expr, 'UTC', ms('2026-01-01T10:00:00Z'), 5);
      expect(isos(sut)).toEqual(hhmm.map((t) => `2026-01-01T${t}:00Z`));
    });

    it('should read names and ? like numbers and * when the expression is 0 0 0 ? * MON-FRI', () => {
      const sut = nextFireTimes('0 0 0 ? * mon-fri', 'UTC', ms('2026-01-01T00:00:00Z'), 3);
      expect(isos(sut)).toEqual(midnights('2026-01-02', '2026-01-05', '2026-01-06'));
    });

    it('should find Feb 29 two leap years apart when the expression is 0 0 29 2 *', () => {
      const sut = nextFireTimes('0 0 29 2 *', 'UTC', ms('2026-03-01T00:00:00Z'), 5);
      expect(isos(sut)).toEqual(midnights('2028-02-29', '2032-02-29', '2036-02-29', '2040-02-29', '2044-02-29'));
    });

    it('should fire on the last day of each month when day-of-month is L', () => {
      const sut = nextFireTimes('0 0 L * *', 'UTC', ms('2024-01-15T00:00:00Z'), 5);
      expect(isos(sut)).toEqual(midnights('2024-01-31', '2024-02-29', '2024-03-31', '2024-04-30', '2024-05-31'));
    });

    it('should fire on the last Friday when day-of-week is 5L and on the second Friday when it is 5#2', () => {
      const last = nextFireTimes('0 0 * * 5L', 'UTC', ms('2026-01-01T00:00:00Z'), 3);
      const second = nextFireTimes('0 0 * * 5#2', 'UTC', ms('2026-01-01T00:00:00Z'), 3);
      expect(isos(last)).toEqual(midnights('2026-01-30', '2026-02-27', '2026-03-27'));
      expect(isos(second)).toEqual(midnights('2026-01-09', '2026-02-13', '2026-03-13'));
    });

    it.each([
      ['0 0 15W * *', '2026-01-01', ['2026-01-15', '2026-02-16', '2026-03-16', '2026-04-15', '2026-05-15']],
      ['0 0 1W * *', '2026-07-15', ['2026-08-03', '2026-09-01', '2026-10-01', '2026-11-02', '2026-12-01']],
      ['0 0 LW * *', '2026-01-01', ['2026-01-30', '2026-02-27', '2026-03-31', '2026-04-30', '2026-05-29']],
    ])('should pick the nearest weekday inside the month when day-of-month is %s', (expr, from, days) => {
      const sut = nextFireTimes(expr, 'UTC', ms(`${from}T00:00:00Z`), 5);
      expect(isos(sut)).toEqual(midnights(...days));
    });
  });

  describe('day-of-month and day-of-week (docs/trigger.md: AND when either starts with *, else OR)', () => {
    it('should require both when day-of-month is */2 and day-of-week is 1 (odd days that are Mondays)', () => {
      const sut = nextFireTimes('0 0 */2 * 1', 'UTC', ms('2026-01-01T00:00:00Z'), 6);
      expect(isos(sut)).toEqual(
        midnights('2026-01-05', '2026-01-19', '2026-02-09', '2026-02-23', '2026-03-09', '2026-03-23'),
      );
    });

    it('should accept either when both fields are restricted (0 0 1,15 * 1)', () => {
      const sut = nextFireTimes('0 0 1,15 * 1', 'UTC', ms('2026-01-01T00:00:00Z'), 7);
      expect(isos(sut)).toEqual(
        midnights('2026-01-05', '2026-01-12', '2026-01-15', '2026-01-19', '2026-01-26', '2026-02-01', '2026-02-02'),
      );
    });

    it('should follow Vixie cron (AND) when the expression is 0 0 */3 * 1-5 (BC-05 d)', () => {
      const sut = nextFireTimes('0 0 */3 * 1-5', 'UTC', ms('2024-04-01T00:00:01Z'), 6);
      expect(isos(sut)).toEqual(
        midnights('2024-04-04', '2024-04-10', '2024-04-16', '2024-04-19', '2024-04-22', '2024-04-25'),
      );
    });

    it('should use OR when the expression is 0 5 2-8 * 4 (BC-05 a)', () => {
      const sut = nextFireTimes('0 5 2-8 * 4', 'UTC', ms('2021-01-09T17:48:39Z'), 6);
      const days = ['2021-01-14', '2021-01-21', '2021-01-28', '2021-02-02', '2021-02-03', '2021-02-04'];
      expect(isos(sut)).toEqual(days.map((d) => `${d}T05:00:00Z`));
    });

    it('should fire on the Mondays of February when the expression is 0 0 30 2 1 (BC-05 e)', () => {
      expect(() => validateCron('0 0 30 2 1', 'UTC')).not.toThrow();
      const sut = nextFireTimes('0 0 30 2 1', 'UTC', ms('2026-01-01T00:00:00Z'), 3);
      expect(isos(sut)).toEqual(midnights('2026-02-02', '2026-02-09', '2026-02-16'));
    });

    it('should keep the DST gap shift when the day rule is wrapped (30 2 */1 * 0, Europe/Rome)', () => {
      const sut = nextFireTimes('30 2 */1 * 0', 'Europe/Rome', ms('2025-03-28T23:59:59Z'), 3);
      expect(isos(sut)).toEqual(['2025-03-30T01:30:00Z', '2025-04-06T00:30:00Z', '2025-04-13T00:30:00Z']);
    });
  });

  describe('time zones (results are UTC instants, computed in the given zone)', () => {
    it('should fire at 09:00 +08:00 when the zone is Asia/Shanghai', () => {
      const sut = nextFireTimes('0 9 * * *', 'Asia/Shanghai', ms('2026-01-01T00:00:00Z'), 3);
      expect(isos(sut)).toEqual(['2026-01-01T01:00:00Z', '2026-01-02T01:00:00Z', '2026-01-03T01:00:00Z']);
    });

    it('should move from EST to EDT when the zone is America/New_York and DST starts on 2026-03-08', () => {
      const sut = nextFireTimes('0 9 * * *', 'America/New_York', ms('2026-03-07T00:00:00Z'), 3);
      expect(isos(sut)).toEqual(['2026-03-07T14:00:00Z', '2026-03-08T13:00:00Z', '2026-03-09T13:00:00Z']);
    });

    it('should shift 01:30 to 02:30 BST in the gap and fire once in the overlap when the zone is Europe/London', () => {
      const spring = nextFireTimes('30 1 * * *', 'Europe/London', ms('2026-03-27T12:00:00Z'), 3);
      const autumn = nextFireTimes('30 1 * * *', 'Europe/London', ms('2026-10-23T12:00:00Z'), 3);
      expect(isos(spring)).toEqual(['2026-03-28T01:30:00Z', '2026-03-29T01:30:00Z', '2026-03-30T00:30:00Z']);
      expect(isos(autumn)).toEqual(['2026-10-24T00:30:00Z', '2026-10-25T00:30:00Z', '2026-10-26T01:30:00Z']);
    });

    it('should fire at 08:00 CDT, not a week late, when a Sunday job meets spring-forward (BC-01 a)', () => {
      const sut = nextFireTimes('0 8 * * 0', 'America/Chicago', ms('2026-03-08T05:45:00Z'), 5);
      const days = ['2026-03-08', '2026-03-15', '2026-03-22', '2026-03-29', '2026-04-05'];
      expect(isos(sut)).toEqual(days.map((d) => `${d}T13:00:00Z`));
    });

    it('should shift 02:30 in the gap forward by the gap when the zone is Europe/Rome (BC-01 d)', () => {
      const sut = nextFireTimes('30 2 * * 0', 'Europe/Rome', ms('2025-03-28T23:59:59Z'), 3);
      expect(isos(sut)).toEqual(['2025-03-30T01:30:00Z', '2025-04-06T00:30:00Z', '2025-04-13T00:30:00Z']);
    });

    it('should fire at 03:00 CEST right after the gap when the zone is Europe/Rome (BC-01 e)', () => {
      const sut = nextFireTimes('0 3 * * 0', 'Europe/Rome', ms('2025-03-28T23:59:59Z'), 3);
      expect(isos(sut)).toEqual(['2025-03-30T01:00:00Z', '2025-04-06T01:00:00Z', '2025-04-13T01:00:00Z']);
    });
  });

  describe('guard', () => {
    afterEach(() => jest.restoreAllMocks());

    /** Lets the real parser validate, then replaces the search's next(). */
    function stubNext(next: (afterMs: number) => number | null): void {
      jest.spyOn(CronEvaluator.prototype, 'next').mockImplementation((afterMs) => next(afterMs));
    }

    it('should throw a ScheduleError when the search returns a time that does not advance', () => {
      stubNext((afterMs) => afterMs);
      expect(() => nextFireTimes('* * * * *', 'UTC', ms('2026-01-01T00:00:00Z'), 2)).toThrow(ScheduleError);
    });

    it('should throw a ScheduleError when the search throws', () => {
      stubNext(() => {
        throw new Error('Invalid expression, loop limit exceeded');
      });
      const err = (() => {
        try {
          nextFireTimes('* * * * *', 'UTC', 0, 1);
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(ScheduleError);
      expect(err).toBeInstanceOf(SchedulerError);
      expect((err as ScheduleError).message).toContain('loop limit exceeded');
    });

    it('should throw a ScheduleError when the search finds no fire within the horizon', () => {
      stubNext(() => null);
      expect(() => nextFireTimes('* * * * *', 'UTC', 0, 1)).toThrow(/no fire within 8 years/);
    });
  });
});

describe(validateCron.name, () => {
  it.each(['0 0 30 2 *', '0 0 31 4,6,9,11 *', '0 0 30,31 2 *', '0 0 31 2,4 *', '0 0 30 2 */1'])(
    'should reject %s quickly as never firing',
    (expr) => {
      const { value: err, cpuMs, wallMs } = measured(() => validationErrorOf(() => validateCron(expr, 'UTC')));
      expect(cpuMs).toBeLessThan(100); // CPU time: a loaded machine preempting the test does not count
      expect(wallMs).toBeLessThan(1000);
      expect(err.field).toBe('triggerExpr');
      expect(err.message).toMatch(/never/);
    },
  );

  it('should name timeZone when the zone is unknown', () => {
    const err = validationErrorOf(() => validateCron('0 0 * * *', 'Mars/Olympus'));
    expect(err.field).toBe('timeZone');
    expect(err.message).toContain('Mars/Olympus');
  });

  it('should reject an empty expression and one longer than 255 characters with a clear message', () => {
    expect(validationErrorOf(() => validateCron('  ', 'UTC')).message).toMatch(/empty/);
    expect(validationErrorOf(() => validateCron(`0 0 * * ${'1,'.repeat(130)}1`, 'UTC')).message).toMatch(/255/);
  });

  it.each([
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
    'H * * * *',
    '@daily',
    '0 0 L-2 * *',
    '0 0 1,15W * *',
  ])('should reject %s naming triggerExpr', (expr) => {
    expect(validationErrorOf(() => validateCron(expr, 'UTC')).field).toBe('triggerExpr');
  });

  it.each([
    '0 0 * * THU',
    '0 0 1 JAN-MAR/2 *',
    '0 0 0 L 10 *',
    '0 0 * * 1#5',
    '*/5 * * * * *',
    '0 0 LW * *',
    '30 7-23 * * *',
  ])('should accept %s', (expr) => {
    expect(() => validateCron(expr, 'Europe/Paris')).not.toThrow();
  });
});
