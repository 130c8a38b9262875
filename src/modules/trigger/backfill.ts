import { MAX_BACKFILL_FIRES, MAX_BACKFILL_INSTANCES, ValidationError } from '../../common/index.js';
import { JobDefinition, TriggerType } from '../metadata/index.js';
import { computeNextFireTime } from './schedule/schedule.js';

/** Most fires one backfill request may create (common/limits.ts). */
export const BACKFILL_MAX = MAX_BACKFILL_FIRES;

/**
 * The job's scheduled instants in [fromMs, toMs], ascending; FIXED_RATE on its own grid.
 * @throws ValidationError (`from`/`to`) for an unreadable instant; (`to`) over the backfill bounds, inverted
 *   or reaching into the future; (`triggerType`) for FIXED_DELAY and API jobs.
 */
export function scheduledTimes(def: JobDefinition, fromMs: number, toMs: number, nowMs: number): number[] {
  if (!Number.isFinite(fromMs))
    throw new ValidationError('from', 'from must be an ISO-8601 instant such as 2026-11-29T00:00:00Z');
  if (!Number.isFinite(toMs))
    throw new ValidationError('to', 'to must be an ISO-8601 instant such as 2026-11-29T06:00:00Z');
  if (!(toMs >= fromMs)) throw new ValidationError('to', '`to` must not be before `from`');
  if (toMs > nowMs)
    throw new ValidationError(
      'to',
      'backfill covers past times only: `to` must not be in the future (future fires belong to the schedule)',
    );
  if (def.triggerType === TriggerType.FIXED_DELAY || def.triggerType === TriggerType.API) {
    throw new ValidationError('triggerType', `a ${def.triggerType} job has no schedule to backfill`);
  }
  const out: number[] = [];
  const shards = Math.max(1, def.shardTotal ?? 1);
  const most = Math.min(BACKFILL_MAX, Math.floor(MAX_BACKFILL_INSTANCES / shards));
  let t = firstAtOrAfter(def, fromMs);
  while (t !== null && t <= toMs) {
    if (out.length === most) {
      const why =
        most === BACKFILL_MAX
          ? `more than ${BACKFILL_MAX} fires`
          : `more than ${most} fires of ${shards} shards (${MAX_BACKFILL_INSTANCES} instances at most)`;
      throw new ValidationError('to', `the range holds ${why}; split it`);
    }
    out.push(t);
    t = next(def, t);
  }
  return out;
}

function firstAtOrAfter(def: JobDefinition, fromMs: number): number | null {
  if (def.triggerType !== TriggerType.FIXED_RATE) return computeNextFireTime(def, fromMs - 1);
  const period = Number(def.triggerExpr);
  const anchor = def.lastFireTime ?? def.nextFireTime ?? def.createdAt;
  return anchor + Math.ceil((fromMs - anchor) / period) * period;
}

function next(def: JobDefinition, t: number): number | null {
  if (def.triggerType === TriggerType.FIXED_RATE) return t + Number(def.triggerExpr);
  if (def.triggerType === TriggerType.ONE_SHOT) return null;
  return computeNextFireTime(def, t);
}
