import { ValidationError } from '../../../common/index.js';
import { type NotificationChannel, NotificationKind as K } from '../../metadata/index.js';
import { nextCronFire, validateTimeZone } from '../../trigger/index.js';

/** Which instances a FINAL_FAILURE rule watches: a job's runs, tasks, or both. */
export type FailureTarget = 'JOB' | 'TASK' | 'ANY';

/**
 * A rule as the API and CLI give it (docs/notifications.md "Rules"); the DTO has checked shapes and bounds, this
 * module the rules between fields. Durations in ms.
 */
export interface RuleInput {
  name: string;
  kind: K;
  jobCode?: string | null;
  handler?: string | null;
  target?: FailureTarget;
  count?: number;
  withinMs?: number;
  finishBy?: string;
  timeZone?: string;
  thresholdMs?: number;
  /** Checked by {@link checkChannels}. */
  channels?: unknown;
  quietMs?: number;
  groupBy?: 'SUBJECT' | 'RULE';
  enabled?: boolean;
}

/** The per-kind settings a rule stores (`notification_rule.params`). */
export interface RuleParams {
  target?: FailureTarget;
  count?: number;
  withinMs?: number;
  finishBy?: string;
  timeZone?: string;
  thresholdMs?: number;
}

/** Default quiet period: 10 minutes. */
export const DEFAULT_QUIET_MS = 600_000;
/** A fire later than this starts late by default (the design source warns past 500 ms). */
export const DEFAULT_LATE_MS = 500;
/** A task waits this long for an unadvertised handler before it is reported, by default. */
export const DEFAULT_HANDLER_WAIT_MS = 60_000;

type ParamField = keyof RuleParams | 'jobCode' | 'handler';
/** The fields each kind takes; any other given is a 400 naming it. */
const ALLOWED: Record<K, readonly ParamField[]> = {
  [K.FINAL_FAILURE]: ['target', 'jobCode', 'handler'],
  [K.CONSECUTIVE_FAILURES]: ['count', 'jobCode', 'handler'],
  [K.RECOVERY]: ['jobCode', 'handler'],
  [K.DEADLINE]: ['withinMs', 'finishBy', 'timeZone', 'jobCode', 'handler'],
  [K.LATE_START]: ['thresholdMs', 'jobCode', 'handler'],
  [K.HANDLER_UNAVAILABLE]: ['thresholdMs', 'handler'],
  [K.CALLBACK_HOST_FAILING]: [],
};
const FIELDS: readonly ParamField[] = [
  'target',
  'count',
  'withinMs',
  'finishBy',
  'timeZone',
  'thresholdMs',
  'jobCode',
  'handler',
];

/**
 * The params of `input` for its kind, defaults filled in.
 * @throws ValidationError naming the field: one the kind does not take, a missing `count`, DEADLINE without
 *   exactly one of `withinMs` and `finishBy`, a bad `finishBy` (HH:MM) or `timeZone`, a threshold out of range.
 */
export function ruleParams(input: RuleInput): RuleParams {
  const allowed = ALLOWED[input.kind];
  for (const f of FIELDS) {
    if (input[f] !== undefined && input[f] !== null && !allowed.includes(f))
      throw new ValidationError(f, `${f} does not apply to a ${input.kind} rule (it takes ${list(allowed)})`);
  }
  switch (input.kind) {
    case K.FINAL_FAILURE:
      return { target: input.target ?? 'ANY' };
    case K.CONSECUTIVE_FAILURES:
      if (input.count === undefined) throw new ValidationError('count', 'a CONSECUTIVE_FAILURES rule needs count');
      return { count: input.count };
    case K.DEADLINE:
      return deadlineParams(input);
    case K.LATE_START:
      return { thresholdMs: input.thresholdMs ?? DEFAULT_LATE_MS };
    case K.HANDLER_UNAVAILABLE:
      if ((input.thresholdMs ?? DEFAULT_HANDLER_WAIT_MS) < 1000)
        throw new ValidationError('thresholdMs', 'a HANDLER_UNAVAILABLE threshold is at least 1000 ms');
      return { thresholdMs: input.thresholdMs ?? DEFAULT_HANDLER_WAIT_MS };
    default:
      return {};
  }
}

function deadlineParams(input: RuleInput): RuleParams {
  if ((input.withinMs === undefined) === (input.finishBy === undefined))
    throw new ValidationError('withinMs', 'a DEADLINE rule takes exactly one of withinMs and finishBy');
  if (input.withinMs !== undefined) {
    if (input.timeZone !== undefined) throw new ValidationError('timeZone', 'timeZone goes with finishBy only');
    return { withinMs: input.withinMs };
  }
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(input.finishBy ?? '');
  if (!m)
    throw new ValidationError('finishBy', `finishBy is a time of day HH:MM (00:00-23:59), got '${input.finishBy}'`);
  const timeZone = input.timeZone ?? 'UTC';
  validateTimeZone(timeZone);
  return { finishBy: input.finishBy, timeZone };
}

/**
 * When a run fired at `fireTime` (epoch ms) must have finished under DEADLINE `params`: `fireTime + withinMs`, or
 * the first `finishBy` wall time in `timeZone` strictly after the fire (a 06:00 fire's deadline is the next day's
 * 06:00). Null when the params are not a deadline's (a bad stored row).
 */
export function deadlineOf(params: RuleParams, fireTime: number): number | null {
  if (typeof params.withinMs === 'number') return fireTime + params.withinMs;
  const m = /^(\d\d):(\d\d)$/.exec(String(params.finishBy ?? ''));
  if (!m) return null;
  try {
    return nextCronFire(`0 ${Number(m[2])} ${Number(m[1])} * * *`, String(params.timeZone ?? 'UTC'), fireTime);
  } catch {
    return null;
  }
}

/** The longest any DEADLINE can lie after its fire: 24 h for finishBy, withinMs otherwise. */
export function deadlineSpan(params: RuleParams): number {
  return typeof params.withinMs === 'number' ? params.withinMs : 86_400_000;
}

/** Most channels a rule has, addresses an e-mail channel has, characters an address has (RFC 5321). */
export const CHANNEL_BOUNDS = { channels: 5, emailTo: 10, email: 254 } as const;
const BOUNDS = { channels: { max: 5 }, emailTo: { min: 1, max: 10 }, email: { max: 254 } } as const;

/** A plain e-mail address: local@domain, no spaces or angle brackets (RFC 5321's length). */
const EMAIL =
  /^[^\s@<>(),;:"]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

/**
 * `channels` checked item by item: `{type: 'webhook'|'chat', url}` (the URL is judged by the egress policy later)
 * or `{type: 'email', to: [1-10 addresses]}`, no other keys, at most BOUNDS.channels.
 * @throws ValidationError naming the item's field, e.g. `channels[1].to[0]`.
 */
export function checkChannels(raw: unknown): NotificationChannel[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new ValidationError('channels', 'channels must be an array');
  if (raw.length > BOUNDS.channels.max)
    throw new ValidationError('channels', `channels holds at most ${BOUNDS.channels.max} channels`);
  return raw.map((c: unknown, i) => {
    const at = `channels[${i}]`;
    if (typeof c !== 'object' || c === null || Array.isArray(c))
      throw new ValidationError(at, `${at} must be an object`);
    const o = c as Record<string, unknown>;
    const keys = o.type === 'email' ? ['type', 'to'] : ['type', 'url'];
    const extra = Object.keys(o).find((k) => !keys.includes(k));
    if (o.type !== 'webhook' && o.type !== 'chat' && o.type !== 'email')
      throw new ValidationError(`${at}.type`, `${at}.type must be webhook, chat or email`);
    if (extra !== undefined)
      throw new ValidationError(`${at}.${extra}`, `${at}.${extra} is not a field of a ${o.type} channel`);
    if (o.type !== 'email') {
      if (typeof o.url !== 'string') throw new ValidationError(`${at}.url`, `${at}.url must be a string`);
      return { type: o.type, url: o.url };
    }
    const to = o.to;
    if (!Array.isArray(to) || to.length < BOUNDS.emailTo.min || to.length > BOUNDS.emailTo.max)
      throw new ValidationError(`${at}.to`, `${at}.to must be 1-${BOUNDS.emailTo.max} e-mail addresses`);
    to.forEach((a: unknown, k) => {
      if (typeof a !== 'string' || a.length > BOUNDS.email.max || !EMAIL.test(a))
        throw new ValidationError(
          `${at}.to[${k}]`,
          `${at}.to[${k}] must be an e-mail address (at most 254 characters)`,
        );
    });
    return { type: 'email', to: [...new Set(to as string[])] };
  });
}

function list(fields: readonly string[]): string {
  return fields.length === 0 ? 'no other field' : fields.join(', ');
}
