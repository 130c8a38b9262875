import { JobDefinition, MisfirePolicy, TriggerSource, TriggerType } from '../metadata/index.js';
import { computeNextFireTime } from './schedule/schedule.js';

/** What firing one due job definition should do, decided without I/O. */
export interface FirePlan {
  /** Fire time to record (the scheduled instant, so the unique key dedupes), or null for none (SKIP). */
  fireTime: number | null;
  source: TriggerSource;
  /** New next_fire_time; null = no further fire (one-shot done, fixed delay waiting for the finish). */
  nextFireTime: number | null;
  misfired: boolean;
  /** Set when the next fire could not be computed: the job goes to schedule_state ERROR. */
  error?: string;
}

/**
 * Decides a due job's fire (DESIGN §5 firing and misfire rules). `now` and times are epoch ms UTC.
 * - on time (lateness within `misfireThresholdMs`): fire at next_fire_time, next from that fire time;
 * - misfired, FIRE_ONCE_NOW: one MISFIRE instance for the oldest missed time, next computed from `now`
 *   so the rest of the missed times are dropped;
 * - misfired, SKIP: no instance, next from `now`;
 * - misfired, FIRE_ALL: fire the missed time and step one schedule period, so later scans catch up one
 *   missed fire each (bounded by the scan batch size per pass).
 * FIXED_DELAY and ONE_SHOT have no next fire from here (FIXED_DELAY's comes from the finish).
 */
export function planFire(def: JobDefinition, now: number, misfireThresholdMs: number): FirePlan {
  const due = def.nextFireTime as number;
  const misfired = now - due > misfireThresholdMs;
  const policy = misfired ? def.misfirePolicy : null;
  const fireTime = policy === MisfirePolicy.SKIP ? null : due;
  const source = misfired ? TriggerSource.MISFIRE : TriggerSource.SCHEDULE;
  const nextFrom = policy === MisfirePolicy.FIRE_ONCE_NOW || policy === MisfirePolicy.SKIP ? Math.max(now, due) : due;
  if (def.triggerType === TriggerType.FIXED_DELAY || def.triggerType === TriggerType.ONE_SHOT) {
    return { fireTime, source, nextFireTime: null, misfired };
  }
  try {
    const next = computeNextFireTime(def, nextFrom);
    if (next !== null && next <= due) {
      return { fireTime, source, nextFireTime: null, misfired, error: `next fire ${next} does not advance past ${due}` };
    }
    return { fireTime, source, nextFireTime: next, misfired };
  } catch (err) {
    return { fireTime, source, nextFireTime: null, misfired, error: (err as Error).message };
  }
}
