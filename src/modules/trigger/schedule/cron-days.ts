/**
 * Which calendar days a cron fires on: month, day-of-month (`L`, `nW`, `LW`), day-of-week (`nL`, `n#k`),
 * combined with AND when either day field starts with `*` or is `?`, else OR. No zone: wall dates only.
 */

/** The day fields of one expression, as expanded by the parser. */
export interface DayRule {
  /** AND (either field starts with `*` or is `?`) or OR (both restricted). */
  and: boolean;
  months: ReadonlySet<number>;
  domDays: ReadonlySet<number>;
  domLast: boolean;
  /** `nW` (a day) or `LW` ('L'); null without W. */
  weekdayNear: number | 'L' | null;
  /** Weekdays 0-6 (Sunday 0). */
  dowDays: ReadonlySet<number>;
  /** Weekdays of `nL`: the last such weekday of the month. */
  dowLast: ReadonlySet<number>;
  /** k of `n#k` (applies to every weekday of `dowDays`), or 0. */
  nth: number;
}

/** Days of `month` (1-12) in `year` that the rule selects, ascending; empty when the month is excluded. */
export function matchingDays(rule: DayRule, year: number, month: number): number[] {
  if (!rule.months.has(month)) return [];
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const weekday = (day: number) => new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  const nearWeekday = rule.weekdayNear === null ? null : nearestWeekday(rule.weekdayNear, last, weekday);
  const days: number[] = [];
  for (let day = 1; day <= last; day++) {
    const wd = weekday(day);
    const dom = rule.domDays.has(day) || (rule.domLast && day === last) || day === nearWeekday;
    const dow =
      (rule.dowDays.has(wd) && (rule.nth <= 0 || Math.ceil(day / 7) === rule.nth)) ||
      (rule.dowLast.has(wd) && day + 7 > last);
    if (rule.and ? dom && dow : dom || dow) days.push(day);
  }
  return days;
}

/** Quartz `W`: the weekday nearest the day within the month; `LW` the last weekday; a missing day selects none. */
function nearestWeekday(target: number | 'L', last: number, weekday: (day: number) => number): number | null {
  if (target === 'L') {
    let day = last;
    while (weekday(day) === 0 || weekday(day) === 6) day--;
    return day;
  }
  if (target > last) return null;
  const wd = weekday(target);
  if (wd === 6) return target === 1 ? 3 : target - 1;
  if (wd === 0) return target === last ? target - 2 : target + 1;
  return target;
}

/** Memoises {@link matchingDays} per month as bitmasks (bit d: day d), not Sets (~80 KB per cached cron). */
export class DayMatcher {
  private readonly byMonth = new Map<number, number>();

  constructor(private readonly rule: DayRule) {}

  /** Whether the month (1-12) of `year` is allowed at all. */
  monthAllowed(month: number): boolean {
    return this.rule.months.has(month);
  }

  /** Whether the wall date `year-month-day` is a firing day. */
  matches(year: number, month: number, day: number): boolean {
    const key = year * 12 + month;
    let days = this.byMonth.get(key);
    if (days === undefined) {
      if (this.byMonth.size > 240) this.byMonth.clear();
      days = 0;
      for (const d of matchingDays(this.rule, year, month)) days |= 1 << d;
      this.byMonth.set(key, days);
    }
    return (days & (1 << day)) !== 0;
  }
}
