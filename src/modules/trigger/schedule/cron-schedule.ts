/**
 * Cron schedules: validation and next-fire computation, the zone always explicit (docs/trigger.md "Cron").
 * cron-parser parses and expands the fields; {@link CronEvaluator} computes the fires under our day and DST
 * rules. Every search is bounded by {@link CRON_HORIZON_MS}; at run time a failed search is a ScheduleError.
 */
import { CronExpressionParser, type CronExpression } from 'cron-parser';
import { ErrorCode, SchedulerError, ValidationError } from '../../../common/index.js';
import type { DayRule } from './cron-days.js';
import { CronEvaluator } from './cron-evaluator.js';
import { canonicalZone } from './zone-timeline.js';

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

/** A stored schedule that cannot be computed (search threw, no fire in the horizon, no advance). */
export class ScheduleError extends SchedulerError {
  constructor(message: string, details?: Record<string, unknown>) {
    super(ErrorCode.VALIDATION, message, EXPR_FIELD, details);
  }
}

/** A parsed, validated expression and the search that computes its fires. */
interface CompiledCron {
  evaluator: CronEvaluator;
  /** Values of the seconds field (1 for a 5-field expression): the most fires any one minute can hold. */
  secondsPerMinute: number;
}

/**
 * Validates a 5- or 6-field cron expression and its IANA zone; refuses macros, `H` and expressions that
 * never fire within {@link CRON_HORIZON_MS} of {@link FEASIBILITY_ANCHOR_MS}.
 * @throws ValidationError with field `triggerExpr` or `timeZone`.
 */
export function validateCron(expr: string, timeZone: string): void {
  const cron = compileCron(expr, timeZone);
  let next: number | null;
  try {
    next = findNext(cron, FEASIBILITY_ANCHOR_MS);
  } catch (err) {
    throw new ValidationError(
      EXPR_FIELD,
      `cron expression '${expr.trim()}' cannot be computed: ${(err as Error).message}`,
    );
  }
  if (next === null) {
    const why = 'never fires within 8 years (e.g. 30 February, or a rarer combination)';
    throw new ValidationError(EXPR_FIELD, `cron expression '${expr.trim()}' ${why}`);
  }
}

/**
 * The next `count` fire times strictly after `afterMs`, ascending, epoch ms UTC, computed in `timeZone`.
 * @throws ValidationError for a bad expression, zone or count.
 * @throws ScheduleError when the search fails or a result does not advance.
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
    const next = searchNext(cron, expr, timeZone, cursor);
    if (next === null)
      throw new ScheduleError(`cron '${expr}' (${timeZone}) has no fire within 8 years after ${iso(cursor)}`);
    if (!(next > cursor)) throw new ScheduleError(`cron '${expr}' (${timeZone}) did not advance past ${iso(cursor)}`);
    out.push(next);
    cursor = next;
  }
  return out;
}

/**
 * The first fire strictly after `afterMs` within {@link CRON_HORIZON_MS}, or null when there is none: the
 * search {@link nextFireTimes} (so the scheduler) runs, for callers that stop at the horizon instead of failing.
 * @throws ValidationError for a bad expression or zone; ScheduleError when the search fails or does not advance.
 */
export function nextCronFire(expr: string, timeZone: string, afterMs: number): number | null {
  if (!Number.isFinite(afterMs)) throw new ValidationError('afterMs', 'afterMs must be a finite epoch ms value');
  const next = searchNext(compileCron(expr, timeZone), expr, timeZone, afterMs);
  if (next !== null && !(next > afterMs))
    throw new ScheduleError(`cron '${expr}' (${timeZone}) did not advance past ${iso(afterMs)}`);
  return next;
}

/** The compiled search of a valid expression, to explain its fires (fire-notes.ts). @throws ValidationError */
export function cronEvaluatorOf(expr: string, timeZone: string): CronEvaluator {
  return compileCron(expr, timeZone).evaluator;
}

/**
 * The most fires one minute can hold: the values of the seconds field (1 for 5 fields).
 * @throws ValidationError for an invalid expression or zone.
 */
export function cronFiresPerMinute(expr: string, timeZone: string): number {
  return compileCron(expr, timeZone).secondsPerMinute;
}

/**
 * Throws ValidationError(`timeZone`) unless `timeZone` is a zone name the runtime's Intl knows. A known name is
 * remembered ({@link canonicalZone}): a new Intl.DateTimeFormat costs ~0.1 ms, half of a cold compile.
 */
export function validateTimeZone(timeZone: string): void {
  if (typeof timeZone !== 'string' || timeZone.trim() === '') {
    throw new ValidationError(ZONE_FIELD, 'time zone must be an IANA zone name such as UTC or Europe/Paris');
  }
  try {
    canonicalZone(timeZone);
  } catch {
    throw new ValidationError(
      ZONE_FIELD,
      `unknown time zone '${timeZone}' (expected an IANA name such as Asia/Shanghai)`,
    );
  }
}

/** Compiled schedules by zone and expression (firing asks for the same few again and again). */
const COMPILED = new Map<string, CompiledCron>();
const COMPILED_MAX = 20_000;

/** {@link compileFresh}, memoised (valid expressions only; a bad one throws every time). */
function compileCron(expr: string, timeZone: string): CompiledCron {
  const key = `${timeZone}\n${expr}`;
  let cron = COMPILED.get(key);
  if (!cron) {
    cron = compileFresh(expr, timeZone);
    if (COMPILED.size >= COMPILED_MAX) COMPILED.clear();
    COMPILED.set(key, cron);
  }
  return cron;
}

function compileFresh(expr: string, spelled: string): CompiledCron {
  validateTimeZone(spelled);
  const timeZone = canonicalZone(spelled); // the parser's (luxon's) zone caches see each zone once
  const fields = splitFields(expr);
  const [, min, hour, dom] = fields;
  const hasW = dom.includes('W');
  if (hasW && !/^([1-9]|[12]\d|3[01]|L)W$/.test(dom)) {
    throw new ValidationError(EXPR_FIELD, `W must stand alone in day-of-month as nW (1-31) or LW, got '${dom}'`);
  }
  // With W the parser only checks the other fields; the day-of-month is ours.
  const parsed = parse(hasW ? [...fields.slice(0, 3), '*', ...fields.slice(4)] : fields, timeZone, expr);
  const ascending = (values: readonly unknown[]) => [...new Set(numbers(values))].sort((x, y) => x - y);
  const search = {
    seconds: ascending(parsed.fields.second.values),
    minutes: ascending(parsed.fields.minute.values),
    hours: ascending(parsed.fields.hour.values),
    days: dayRuleOf(parsed, fields, hasW),
    fixedTime: !min.startsWith('*') && !hour.startsWith('*'),
  };
  return { evaluator: new CronEvaluator(search, timeZone), secondsPerMinute: search.seconds.length };
}

/** The day fields as a {@link DayRule}: AND when either starts with `*` or is `?`, else OR. */
function dayRuleOf(parsed: CronExpression, fields: readonly string[], hasW: boolean): DayRule {
  const [dom, dow] = [fields[3], fields[5]];
  const starts = (f: string) => f.startsWith('*') || f === '?';
  const domValues = hasW ? [] : (parsed.fields.dayOfMonth.values as unknown[]);
  const dowValues = parsed.fields.dayOfWeek.values as unknown[];
  return {
    and: starts(dom) || starts(dow),
    months: new Set(numbers(parsed.fields.month.values)),
    domDays: new Set(numbers(domValues)),
    domLast: domValues.includes('L'),
    weekdayNear: hasW ? (dom === 'LW' ? 'L' : Number(dom.slice(0, -1))) : null,
    dowDays: new Set(numbers(dowValues).map((v) => v % 7)),
    dowLast: new Set(dowValues.filter((v): v is string => typeof v === 'string').map((v) => Number(v.charAt(0)) % 7)),
    nth: parsed.fields.dayOfWeek.nthDay,
  };
}

function numbers(values: readonly unknown[]): number[] {
  return values.filter((v): v is number => typeof v === 'number');
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
    throw new ValidationError(
      EXPR_FIELD,
      `macros such as '${macro}' are not accepted; write the fields (e.g. @daily = '0 0 * * *')`,
    );
  }
  const fields = trimmed.toUpperCase().split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) {
    throw new ValidationError(
      EXPR_FIELD,
      `cron expression needs 5 fields (minute hour day-of-month month day-of-week) or 6 (seconds first), got ` +
        `${fields.length}`,
    );
  }
  if (fields.some((f) => f.split(',').some((part) => part.startsWith('H')))) {
    throw new ValidationError(
      EXPR_FIELD,
      "'H' (hashed random values) is not supported: the schedule would not be reproducible",
    );
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

/** {@link findNext}, a thrown search error as a ScheduleError. */
function searchNext(cron: CompiledCron, expr: string, timeZone: string, afterMs: number): number | null {
  try {
    return findNext(cron, afterMs);
  } catch (err) {
    throw new ScheduleError(`cron '${expr}' (${timeZone}) failed after ${iso(afterMs)}: ${(err as Error).message}`);
  }
}

/** The first fire strictly after `afterMs` and within the horizon, or null; search errors propagate. */
function findNext(cron: CompiledCron, afterMs: number): number | null {
  return cron.evaluator.next(afterMs, afterMs + CRON_HORIZON_MS);
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
