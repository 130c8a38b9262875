/**
 * Cron schedules (DESIGN §5 "Schedules" and "Time rules"): validation and next-fire computation on top of
 * cron-parser, with the zone always passed explicitly so the host's `TZ` never changes a result.
 *
 * Two paths compute a next fire:
 * - **native**: cron-parser alone, when its day rule already equals ours — one of the day fields is a
 *   plain `*` or `?` and there is no `W`;
 * - **day-wrapped**: cron-parser ORs day-of-month and day-of-week whenever neither is a plain `*`/`?`,
 *   but classic cron ANDs them when either field *starts with* `*` (a step on `*` included) or is `?`,
 *   and cron-parser rejects `W`. For those we pick the matching days of each month ourselves and ask
 *   cron-parser only for the times of day on those days (`sec min hour <days> <month> *`), so the DST
 *   rules stay cron-parser's.
 *
 * Every search is bounded by {@link CRON_HORIZON_MS} (8 years: enough for Feb 29 across 2100). An
 * expression with no fire inside that window from {@link FEASIBILITY_ANCHOR_MS} is rejected as never
 * firing; at run time an empty window, a parser exception or a result that does not advance is a
 * {@link ScheduleError}, so the caller marks the job in error instead of spinning.
 */
import { CronDate, CronExpressionParser, type CronExpression } from 'cron-parser';
import { ErrorCode, SchedulerError, ValidationError } from '../../../common/index.js';

/** Longest accepted cron expression, in characters. */
export const MAX_CRON_LENGTH = 255;
/** How far any single next-fire search looks ahead: 8 years (of 366 days), in ms. */
export const CRON_HORIZON_MS = 8 * 366 * 86_400_000;
/** Fixed instant (2024-01-01T00:00:00Z) from which validation checks that an expression fires at all. */
export const FEASIBILITY_ANCHOR_MS = Date.UTC(2024, 0, 1);
/** Most fire times one call may ask for. */
export const MAX_FIRE_COUNT = 1000;

const EXPR_FIELD = 'triggerExpr';
const ZONE_FIELD = 'timeZone';
/** Earliest local start of day 1 of a month is 14 h before its UTC midnight; 15 h is safely before. */
const BEFORE_MONTH_MS = 15 * 3_600_000;
/** cron-parser's message when a search passes `endDate` (the constant is not re-exported by its index). */
const TIME_SPAN_OUT_OF_BOUNDS = 'Out of the time span range';

/**
 * A stored schedule that cannot be computed at run time: the parser threw, no fire exists within the
 * horizon, or a "next" fire does not advance. The caller marks the job in error and alerts (DESIGN §5).
 */
export class ScheduleError extends SchedulerError {
  constructor(message: string, details?: Record<string, unknown>) {
    super(ErrorCode.VALIDATION, message, EXPR_FIELD, details);
  }
}

/** Day matching for the day-wrapped path. `weekdayNear` is `nW` (a day) or `LW` ('L'). */
interface DayRule {
  and: boolean;
  domDays: ReadonlySet<number>;
  domLast: boolean;
  weekdayNear: number | 'L' | null;
  dowDays: ReadonlySet<number>;
  dowLast: ReadonlySet<number>;
  nth: number;
}

/** A parsed, validated expression: six upper-cased fields plus the day rule when wrapping is needed. */
interface CompiledCron {
  fields: readonly string[];
  timeZone: string;
  months: ReadonlySet<number>;
  dayRule: DayRule | null;
}

/**
 * Validates a cron expression and its IANA time zone.
 *
 * Accepts 5 fields (`min hour dom mon dow`) or 6 (leading seconds), with names (JAN, MON), ranges,
 * steps, lists, `L`, `nL`, `n#k`, `?` and `nW`/`LW` (alone in day-of-month). Rejects empty or over-long
 * input, macros (`@daily`), `H` (random values would differ between parses) and expressions that never
 * fire (e.g. `0 0 30 2 *`), looking at most {@link CRON_HORIZON_MS} ahead of {@link FEASIBILITY_ANCHOR_MS}.
 *
 * @throws ValidationError with field `triggerExpr` (the expression) or `timeZone` (the zone).
 */
export function validateCron(expr: string, timeZone: string): void {
  const cron = compileCron(expr, timeZone);
  let next: number | null;
  try {
    next = findNext(cron, FEASIBILITY_ANCHOR_MS);
  } catch (err) {
    throw new ValidationError(EXPR_FIELD, `cron expression '${expr.trim()}' cannot be computed: ${(err as Error).message}`);
  }
  if (next === null) {
    const why = 'never fires within 8 years (e.g. 30 February, or a rarer combination)';
    throw new ValidationError(EXPR_FIELD, `cron expression '${expr.trim()}' ${why}`);
  }
}

/**
 * The next `count` fire times strictly after `afterMs`, ascending, as epoch ms UTC, computed in
 * `timeZone` (never the host zone) under the DESIGN §5 time rules.
 *
 * @throws ValidationError when the expression, zone or count is invalid.
 * @throws ScheduleError when no fire exists within {@link CRON_HORIZON_MS} of the previous one, the
 *   parser throws, or a result does not advance.
 */
export function nextFireTimes(expr: string, timeZone: string, afterMs: number, count: number): number[] {
  if (!Number.isFinite(afterMs)) throw new ValidationError('afterMs', 'afterMs must be a finite epoch ms value');
  if (!Number.isInteger(count) || count < 0 || count > MAX_FIRE_COUNT) {
    throw new ValidationError('count', `count must be an integer between 0 and ${MAX_FIRE_COUNT}`);
  }
  const cron = compileCron(expr, timeZone);
  const out: number[] = [];
  let cursor = afterMs;
  while (out.length < count) {
    let next: number | null;
    try {
      next = findNext(cron, cursor);
    } catch (err) {
      throw new ScheduleError(`cron '${expr}' (${timeZone}) failed after ${iso(cursor)}: ${(err as Error).message}`);
    }
    if (next === null) throw new ScheduleError(`cron '${expr}' (${timeZone}) has no fire within 8 years after ${iso(cursor)}`);
    if (!(next > cursor)) throw new ScheduleError(`cron '${expr}' (${timeZone}) did not advance past ${iso(cursor)}`);
    out.push(next);
    cursor = next;
  }
  return out;
}

/** Throws ValidationError(`timeZone`) unless `timeZone` is a zone name the runtime's Intl knows. */
export function validateTimeZone(timeZone: string): void {
  if (typeof timeZone !== 'string' || timeZone.trim() === '') {
    throw new ValidationError(ZONE_FIELD, 'time zone must be an IANA zone name such as UTC or Europe/Paris');
  }
  try {
    new Intl.DateTimeFormat(undefined, { timeZone });
  } catch {
    throw new ValidationError(ZONE_FIELD, `unknown time zone '${timeZone}' (expected an IANA name such as Asia/Shanghai)`);
  }
}

function compileCron(expr: string, timeZone: string): CompiledCron {
  validateTimeZone(timeZone);
  const fields = splitFields(expr);
  const [, , , dom, , dow] = fields;
  const hasW = dom.includes('W');
  if (hasW && !/^([1-9]|[12]\d|3[01]|L)W$/.test(dom)) {
    throw new ValidationError(EXPR_FIELD, `W must stand alone in day-of-month as nW (1-31) or LW, got '${dom}'`);
  }
  // With W the parser only checks the other fields; the day-of-month is ours.
  const parsed = parse(hasW ? [...fields.slice(0, 3), '*', ...fields.slice(4)] : fields, timeZone, expr);
  const months = new Set(parsed.fields.month.values as number[]);
  const plainAny = (f: string) => f === '*' || f === '?';
  if (!hasW && (plainAny(dom) || plainAny(dow))) return { fields, timeZone, months, dayRule: null };
  const starts = (f: string) => f.startsWith('*') || f === '?';
  const domValues = hasW ? [] : (parsed.fields.dayOfMonth.values as (number | string)[]);
  const dowValues = parsed.fields.dayOfWeek.values as (number | string)[];
  const dayRule: DayRule = {
    and: starts(dom) || starts(dow),
    domDays: new Set(domValues.filter((v): v is number => typeof v === 'number')),
    domLast: domValues.includes('L'),
    weekdayNear: hasW ? (dom === 'LW' ? 'L' : Number(dom.slice(0, -1))) : null,
    dowDays: new Set(dowValues.filter((v): v is number => typeof v === 'number').map((v) => v % 7)),
    dowLast: new Set(dowValues.filter((v): v is string => typeof v === 'string').map((v) => Number(v.charAt(0)) % 7)),
    nth: parsed.fields.dayOfWeek.nthDay,
  };
  return { fields, timeZone, months, dayRule };
}

/** Six upper-case fields (`0` seconds prepended to 5), refusing what cron-parser would pad or randomise. */
function splitFields(expr: string): string[] {
  if (typeof expr !== 'string' || expr.trim() === '') throw new ValidationError(EXPR_FIELD, 'cron expression is empty');
  if (expr.length > MAX_CRON_LENGTH) {
    throw new ValidationError(EXPR_FIELD, `cron expression is longer than ${MAX_CRON_LENGTH} characters`);
  }
  const trimmed = expr.trim();
  if (trimmed.startsWith('@')) {
    const macro = trimmed.split(/\s/)[0];
    throw new ValidationError(EXPR_FIELD, `macros such as '${macro}' are not accepted; write the fields (e.g. @daily = '0 0 * * *')`);
  }
  const fields = trimmed.toUpperCase().split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) {
    throw new ValidationError(
      EXPR_FIELD,
      `cron expression needs 5 fields (minute hour day-of-month month day-of-week) or 6 (seconds first), got ${fields.length}`,
    );
  }
  if (fields.some((f) => f.split(',').some((part) => part.startsWith('H')))) {
    throw new ValidationError(EXPR_FIELD, "'H' (hashed random values) is not supported: the schedule would not be reproducible");
  }
  return fields.length === 5 ? ['0', ...fields] : fields;
}

function parse(fields: readonly string[], timeZone: string, original: string): CronExpression {
  try {
    return CronExpressionParser.parse(fields.join(' '), { tz: timeZone, currentDate: new Date(FEASIBILITY_ANCHOR_MS) });
  } catch (err) {
    const reason = (err as Error).message;
    const hint = reason.includes('explicit day of month') ? 'day-of-month never occurs in the given month(s)' : reason;
    throw new ValidationError(EXPR_FIELD, `invalid cron expression '${original.trim()}': ${hint}`);
  }
}

/** The first fire strictly after `afterMs` and within the horizon, or null; parser errors propagate. */
function findNext(cron: CompiledCron, afterMs: number): number | null {
  return cron.dayRule === null ? findNextNative(cron, afterMs) : findNextWrapped(cron, cron.dayRule, afterMs);
}

function findNextNative(cron: CompiledCron, afterMs: number): number | null {
  const it = CronExpressionParser.parse(cron.fields.join(' '), {
    tz: cron.timeZone,
    currentDate: new Date(afterMs),
    endDate: new Date(afterMs + CRON_HORIZON_MS),
  });
  return nextOrNull(it);
}

/** The iterator's next time, or null when it passes its `endDate`; every other parser error propagates. */
function nextOrNull(it: CronExpression): number | null {
  try {
    return it.next().getTime();
  } catch (err) {
    // hasNext() would also swallow the loop-limit error; only the end of the window means "none".
    if ((err as Error).message === TIME_SPAN_OUT_OF_BOUNDS) return null;
    throw err;
  }
}

/**
 * Walks month by month (in the job's zone) up to the horizon; for each allowed month with matching days,
 * asks cron-parser for the first time of day on those days, starting no earlier than `afterMs`.
 */
function findNextWrapped(cron: CompiledCron, rule: DayRule, afterMs: number): number | null {
  const start = new CronDate(new Date(afterMs), cron.timeZone);
  const limit = afterMs + CRON_HORIZON_MS;
  for (let i = 0; ; i++) {
    const monthIndex = start.getMonth() + i;
    const year = start.getFullYear() + Math.floor(monthIndex / 12);
    const month = (monthIndex % 12) + 1;
    const monthStart = Date.UTC(year, month - 1, 1) - BEFORE_MONTH_MS;
    if (monthStart > limit) return null;
    if (!cron.months.has(month)) continue;
    // A day's fires stay on that day even when a DST gap shifts them, so earlier days can be dropped.
    const days = matchingDays(rule, year, month).filter((day) => i > 0 || day >= start.getDate());
    if (days.length === 0) continue;
    const next = firstInMonth(cron, days, month, Math.max(afterMs, monthStart), Date.UTC(year, month, 1) + BEFORE_MONTH_MS);
    if (next !== null) return next > limit ? null : next;
  }
}

/** First fire after `fromMs` on `days` of `month`, or null once the search passes `endMs` (after the month). */
function firstInMonth(cron: CompiledCron, days: number[], month: number, fromMs: number, endMs: number): number | null {
  const [sec, min, hour] = cron.fields;
  const it = CronExpressionParser.parse(`${sec} ${min} ${hour} ${days.join(',')} ${month} *`, {
    tz: cron.timeZone,
    currentDate: new Date(fromMs),
    endDate: new Date(endMs),
  });
  return nextOrNull(it);
}

/** Days of `month` (1-12) in `year` that the day rule selects; calendar arithmetic only, no zone. */
function matchingDays(rule: DayRule, year: number, month: number): number[] {
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

/**
 * Quartz `W`: the weekday nearest to the given day, never leaving the month (`1W` on a Saturday is
 * Monday the 3rd); `LW` is the last weekday. A day the month lacks (`31W` in April) selects nothing.
 */
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

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
