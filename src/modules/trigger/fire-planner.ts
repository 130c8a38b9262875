import { JobDefinition, MisfirePolicy, TriggerSource, TriggerType } from '../metadata/index.js';
import { computeNextFireTime } from './schedule/schedule.js';

/** Most missed fires FIRE_ALL makes up for one job in one pass; older ones beyond it are dropped (DESIGN §5 "bounded"). */
export const FIRE_ALL_MAX = 100;

/** What firing one due job definition should do, decided without I/O. */
export interface FirePlan {
  /** Scheduled instants to record, oldest first (the unique key dedupes each); empty for SKIP. */
  fireTimes: number[];
  source: TriggerSource;
  /** New next_fire_time; null = no further fire (one-shot done, fixed delay waiting for the finish, error). */
  nextFireTime: number | null;
  misfired: boolean;
  /** Missed fire times not made up (SKIP, FIRE_ONCE_NOW beyond the first, FIRE_ALL beyond its bound); a lower bound when large. */
  dropped: number;
  /** Set when the next fire could not be computed: the job goes to schedule_state ERROR. */
  error?: string;
}

/**
 * Decides a due job's fire (DESIGN §5 firing and misfire rules). `now` and times are epoch ms UTC;
 * `def.nextFireTime` is the due instant.
 * - on time (lateness within `misfireThresholdMs`): fire at next_fire_time, next from that fire time;
 * - misfired, FIRE_ONCE_NOW: one MISFIRE instance for the oldest missed time; next from `now`, so the
 *   other missed times are dropped;
 * - misfired, SKIP: no instance; next from `now`;
 * - misfired, FIRE_ALL: one MISFIRE instance per missed time up to now, oldest first, at most
 *   {@link FIRE_ALL_MAX} (the rest dropped); next from `now`.
 * FIXED_DELAY and ONE_SHOT have no next fire from here (FIXED_DELAY's comes from the finish).
 * Never throws: a schedule that cannot be computed is reported in `error`.
 */
export function planFire(def: JobDefinition, now: number, misfireThresholdMs: number): FirePlan {
  const due = def.nextFireTime as number;
  const misfired = now - due > misfireThresholdMs;
  const source = misfired ? TriggerSource.MISFIRE : TriggerSource.SCHEDULE;
  const policy = misfired ? def.misfirePolicy : null;
  const noNext = def.triggerType === TriggerType.FIXED_DELAY || def.triggerType === TriggerType.ONE_SHOT;
  try {
    const missed = policy ? missedSince(def, due, now, noNext) : { times: [due], more: false };
    const fireTimes = policy === MisfirePolicy.SKIP ? [] : policy === MisfirePolicy.FIRE_ALL ? missed.times : [due];
    const dropped = missed.times.length - fireTimes.length + (missed.more ? 1 : 0);
    if (noNext) return { fireTimes, source, nextFireTime: null, misfired, dropped };
    const next = nextAfter(def, policy ? Math.max(now, due) : due, due);
    if (next !== null && next <= due) {
      return { fireTimes, source, nextFireTime: null, misfired, dropped, error: `next fire ${next} does not advance past ${due}` };
    }
    return { fireTimes, source, nextFireTime: next, misfired, dropped };
  } catch (err) {
    return { fireTimes: [due], source, nextFireTime: null, misfired, dropped: 0, error: (err as Error).message };
  }
}

/** First fire strictly after `from`; FIXED_RATE stays on the grid of `due` (BC-09: the anchor survives a gap). */
function nextAfter(def: JobDefinition, from: number, due: number): number | null {
  if (def.triggerType !== TriggerType.FIXED_RATE) return computeNextFireTime(def, from);
  const period = Number(def.triggerExpr);
  return due + (Math.floor((from - due) / period) + 1) * period;
}

/** Scheduled instants in [due, now], oldest first, at most FIRE_ALL_MAX; `more` when some were left out. */
function missedSince(def: JobDefinition, due: number, now: number, single: boolean): { times: number[]; more: boolean } {
  const times = [due];
  if (single) return { times, more: false };
  let t: number | null = due;
  while (times.length <= FIRE_ALL_MAX) {
    t = nextAfter(def, t as number, due);
    if (t === null || t > now) return { times, more: false };
    times.push(t);
  }
  times.pop();
  return { times, more: true };
}
