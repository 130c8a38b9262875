/**
 * The one place that turns a definition's trigger into fire times (docs/trigger.md "Schedules"). Pure: the
 * caller passes every instant, epoch ms UTC. `afterMs` is the previous fire for FIXED_RATE, the previous
 * run's finish for FIXED_DELAY, any instant for CRON and ONE_SHOT. A missing `timeZone` means UTC.
 */
import { ValidationError } from '../../../common/index.js';
import { cronFiresPerMinute, nextFireTimes, validateCron, validateTimeZone } from './cron-schedule.js';

import { TriggerType } from '../../metadata/index.js';

/** Re-exported from the entities, where the enum lives. */
export { TriggerType };

/** The schedule part of a job definition. */
export interface TriggerDef {
  triggerType: TriggerType | string;
  triggerExpr?: string | null;
  timeZone?: string | null;
}

/** Shortest fixed rate or delay, in ms. */
export const MIN_INTERVAL_MS = 1_000;
/** Longest fixed rate or delay (365 days), in ms. */
export const MAX_INTERVAL_MS = 365 * 86_400_000;
/** Default zone when a definition names none. */
export const DEFAULT_TIME_ZONE = 'UTC';

const ISO_INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:(Z)|([+-])(\d{2}):(\d{2}))$/;

/** @throws ValidationError naming `triggerType`, `triggerExpr` or `timeZone`. */
export function validateTrigger(def: TriggerDef): void {
  const zone = zoneOf(def);
  validateTimeZone(zone);
  const type = triggerTypeOf(def);
  const expr = (def.triggerExpr ?? '').trim();
  switch (type) {
    case TriggerType.CRON:
      validateCron(expr, zone);
      return;
    case TriggerType.FIXED_RATE:
    case TriggerType.FIXED_DELAY:
      parseInterval(expr, type);
      return;
    case TriggerType.ONE_SHOT:
      parseInstant(expr);
      return;
    case TriggerType.API:
      if (expr !== '')
        throw new ValidationError('triggerExpr', 'an API job is fired only through the API; leave triggerExpr empty');
  }
}

/**
 * The next fire after `afterMs`, or null when the trigger never fires again (past ONE_SHOT, API).
 * @throws ValidationError for an invalid definition; ScheduleError when a cron cannot be computed.
 */
export function computeNextFireTime(def: TriggerDef, afterMs: number): number | null {
  const type = triggerTypeOf(def);
  const expr = (def.triggerExpr ?? '').trim();
  switch (type) {
    case TriggerType.CRON:
      return nextFireTimes(expr, zoneOf(def), afterMs, 1)[0];
    case TriggerType.FIXED_RATE:
    case TriggerType.FIXED_DELAY:
      return afterMs + parseInterval(expr, type);
    case TriggerType.ONE_SHOT: {
      const at = parseInstant(expr);
      return at > afterMs ? at : null;
    }
    case TriggerType.API:
      return null;
  }
}

/**
 * Up to `n` fire times after `fromMs`, for display; FIXED_DELAY assumes runs take no time.
 */
export function previewFireTimes(def: TriggerDef, fromMs: number, n: number): number[] {
  if (!Number.isInteger(n) || n < 0) throw new ValidationError('n', 'n must be a non-negative integer');
  if (triggerTypeOf(def) === TriggerType.CRON) {
    return nextFireTimes((def.triggerExpr ?? '').trim(), zoneOf(def), fromMs, n);
  }
  const out: number[] = [];
  let cursor = fromMs;
  while (out.length < n) {
    const next = computeNextFireTime(def, cursor);
    if (next === null) break;
    out.push(next);
    cursor = next;
  }
  return out;
}

/**
 * Peak fires of `def` in one minute (× shardTotal it is bounded by JOB_MAX_INSTANCES_PER_MINUTE).
 * @throws ValidationError for an invalid definition.
 */
export function peakFiresPerMinute(def: TriggerDef): number {
  const type = triggerTypeOf(def);
  const expr = (def.triggerExpr ?? '').trim();
  switch (type) {
    case TriggerType.CRON:
      return cronFiresPerMinute(expr, zoneOf(def));
    case TriggerType.FIXED_RATE:
    case TriggerType.FIXED_DELAY:
      return Math.ceil(60_000 / parseInterval(expr, type));
    case TriggerType.ONE_SHOT:
      return 1;
    case TriggerType.API:
      return 0;
  }
}

function triggerTypeOf(def: TriggerDef): TriggerType {
  const type = def.triggerType;
  if (!Object.values<string>(TriggerType).includes(type)) {
    throw new ValidationError(
      'triggerType',
      `trigger type must be one of ${Object.values(TriggerType).join(', ')}, got '${type}'`,
    );
  }
  return type as TriggerType;
}

function zoneOf(def: TriggerDef): string {
  const zone = def.timeZone?.trim();
  return zone ? zone : DEFAULT_TIME_ZONE;
}

/** A period or delay: decimal digits only (no sign, unit or exponent), within the bounds. */
function parseInterval(expr: string, type: TriggerType): number {
  const what = type === TriggerType.FIXED_RATE ? 'fixed rate' : 'fixed delay';
  if (!/^\d{1,15}$/.test(expr)) {
    throw new ValidationError(
      'triggerExpr',
      `${what} must be a whole number of milliseconds (e.g. '60000'), got '${expr}'`,
    );
  }
  const ms = Number(expr);
  if (ms < MIN_INTERVAL_MS || ms > MAX_INTERVAL_MS) {
    const range = `${MIN_INTERVAL_MS} ms and ${MAX_INTERVAL_MS} ms (365 days)`;
    throw new ValidationError('triggerExpr', `${what} must be between ${range}, got ${ms}`);
  }
  return ms;
}

/** An RFC 3339 / ISO-8601 instant with an explicit `Z` or `±hh:mm`, checked field by field (no rollover). */
function parseInstant(expr: string): number {
  const m = ISO_INSTANT.exec(expr);
  const expected = 'an ISO-8601 instant with Z or an offset (e.g. 2026-12-01T10:00:00Z)';
  const bad = () => new ValidationError('triggerExpr', `one-shot time must be ${expected}, got '${expr}'`);
  if (!m) throw bad();
  const [y, mo, d, h, mi] = m.slice(1, 6).map(Number);
  const s = Number(m[6] ?? 0);
  const ms = Number((m[7] ?? '0').padEnd(3, '0').slice(0, 3));
  const lastDay = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  const offH = Number(m[10] ?? 0);
  const offM = Number(m[11] ?? 0);
  if (mo < 1 || mo > 12 || d < 1 || d > lastDay || h > 23 || mi > 59 || s > 59 || offH > 23 || offM > 59) throw bad();
  const offset = (m[9] === '-' ? -1 : 1) * (offH * 60 + offM) * 60_000;
  const utc = new Date(0);
  utc.setUTCFullYear(y, mo - 1, d);
  utc.setUTCHours(h, mi, s, ms);
  return utc.getTime() - offset;
}
