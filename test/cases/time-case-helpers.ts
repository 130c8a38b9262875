import { ValidationError } from '../../src/common/index.js';
import { TriggerType } from '../../src/modules/metadata/index.js';
import { validateTrigger } from '../../src/modules/trigger/schedule/schedule.js';

/** Epoch ms of an ISO instant. */
export const ms = (iso: string) => Date.parse(iso);
/** ISO instants of epoch ms values, whole seconds without their milliseconds. */
export const isos = (times: number[]) => times.map((t) => new Date(t).toISOString().replace('.000Z', 'Z'));
/** ISO instants of `day` at each `hh:mm` or `hh:mm:ss` (UTC). */
export const at = (day: string, ...hhmm: string[]) => hhmm.map((t) => `${day}T${t}${t.length === 5 ? ':00' : ''}Z`);
/** ISO instants of midnight UTC on each day. */
export const midnights = (...days: string[]) => days.map((d) => `${d}T00:00:00Z`);

/** The field a ValidationError thrown by `fn` names. @throws when `fn` throws nothing or another error. */
export function fieldOfRejection(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return (err as ValidationError).field as string;
  }
  throw new Error('expected a ValidationError');
}

/** The field naming why cron `expr` in `timeZone` is refused (via validateTrigger). */
export const rejectCron = (expr: string, timeZone = 'UTC') =>
  fieldOfRejection(() => validateTrigger({ triggerType: TriggerType.CRON, triggerExpr: expr, timeZone }));
