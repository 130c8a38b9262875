import { corruptionOf, JobDefinition, MisfirePolicy, TriggerSource, TriggerType } from '../metadata/index.js';
import { computeNextFireTime } from './schedule/schedule.js';

/** Most missed fires FIRE_ALL runs (and SKIP records) for one job in one pass. */
export const FIRE_ALL_MAX = 100;
/** Bound of the walk that finds the latest missed time for FIRE_ONCE_NOW. */
const WALK_MAX = 10_000;

/** What firing one due job definition should do, decided without I/O. */
export interface FirePlan {
  /** Scheduled instants to run, oldest first (the unique key dedupes each). */
  fireTimes: number[];
  /** Missed instants recorded as not run (SKIP: CANCELLED rows with a MISFIRE_SKIP note), oldest first. */
  skippedTimes: number[];
  source: TriggerSource;
  /** New next_fire_time; null = no further fire (one-shot done, fixed delay waiting for the finish, error). */
  nextFireTime: number | null;
  misfired: boolean;
  /** Missed instants neither run nor recorded (beyond the bounds); a lower bound when large. */
  dropped: number;
  /** Set when the schedule cannot be computed: nothing fires and the job goes to schedule_state ERROR. */
  error?: string;
}

/**
 * The missed fire times `plan`'s misfire policy handled (tickwheel_misfires_total): run late, skipped or folded into
 * one run, those past one pass's bounds as one (`dropped`). 0 on time and for an uncomputable schedule.
 */
export function misfiresHandled(plan: FirePlan): number {
  if (!plan.misfired || plan.error) return 0;
  return plan.fireTimes.length + plan.skippedTimes.length + plan.dropped;
}

/**
 * Decides a due job's fire without I/O (docs/trigger.md "Misfire"): on time, or misfired under
 * FIRE_ONCE_NOW, SKIP or FIRE_ALL. Never throws: an uncomputable schedule or unreadable params (`CORRUPT_ROW`)
 * fire nothing and are reported in `error`. Times are epoch ms UTC.
 */
export function planFire(def: JobDefinition, now: number, misfireThresholdMs: number): FirePlan {
  const due = def.nextFireTime as number;
  const misfired = now - due > misfireThresholdMs;
  const source = misfired ? TriggerSource.MISFIRE : TriggerSource.SCHEDULE;
  const policy = misfired ? def.misfirePolicy : null;
  const noNext = def.triggerType === TriggerType.FIXED_DELAY || def.triggerType === TriggerType.ONE_SHOT;
  const corrupt = corruptionOf(def);
  if (corrupt)
    return { fireTimes: [], skippedTimes: [], source, nextFireTime: null, misfired: false, dropped: 1, error: corrupt };
  try {
    const missed = policy ? missedSince(def, due, now, noNext, FIRE_ALL_MAX) : { times: [due], more: false };
    let fireTimes = [due];
    let skippedTimes: number[] = [];
    if (policy === MisfirePolicy.FIRE_ALL) fireTimes = missed.times;
    if (policy === MisfirePolicy.FIRE_ONCE_NOW)
      fireTimes = [missed.more ? latestMissed(def, due, now) : (missed.times.at(-1) as number)];
    if (policy === MisfirePolicy.SKIP) [fireTimes, skippedTimes] = [[], missed.times];
    const dropped =
      policy === MisfirePolicy.FIRE_ONCE_NOW ? missed.times.length - 1 + (missed.more ? 1 : 0) : missed.more ? 1 : 0;
    const plan = { fireTimes, skippedTimes, source, misfired, dropped };
    if (policy === MisfirePolicy.SKIP && def.triggerType === TriggerType.FIXED_DELAY)
      return { ...plan, nextFireTime: now + Number(def.triggerExpr) };
    if (noNext) return { ...plan, nextFireTime: null };
    const next = nextAfter(def, policy ? Math.max(now, due) : due, due);
    if (next !== null && next <= due)
      return { ...plan, fireTimes: [], nextFireTime: null, error: `next fire ${next} does not advance past ${due}` };
    return { ...plan, nextFireTime: next };
  } catch (err) {
    return {
      fireTimes: [],
      skippedTimes: [],
      source,
      nextFireTime: null,
      misfired,
      dropped: 1,
      error: (err as Error).message,
    };
  }
}

/** First fire strictly after `from`; FIXED_RATE stays on the grid of `due` (BC-09: the anchor survives a gap). */
function nextAfter(def: JobDefinition, from: number, due: number): number | null {
  if (def.triggerType !== TriggerType.FIXED_RATE) return computeNextFireTime(def, from);
  const period = Number(def.triggerExpr);
  return due + (Math.floor((from - due) / period) + 1) * period;
}

/** Scheduled instants in [due, now], oldest first, at most `max`; `more` when some were left out. */
function missedSince(
  def: JobDefinition,
  due: number,
  now: number,
  single: boolean,
  max: number,
): { times: number[]; more: boolean } {
  const times = [due];
  if (single) return { times, more: false };
  let t: number | null = due;
  while (times.length <= max) {
    t = nextAfter(def, t as number, due);
    if (t === null || t > now) return { times, more: false };
    times.push(t);
  }
  times.pop();
  return { times, more: true };
}

/** The latest scheduled instant at or before `now` (bounded walks: from `due`, else from an hour back). */
function latestMissed(def: JobDefinition, due: number, now: number): number {
  const near = missedSince(def, due, now, false, WALK_MAX);
  if (!near.more) return near.times.at(-1) as number;
  const start = nextAfter(def, Math.max(due, now - 3_600_000) - 1, due);
  if (start === null || start > now) return near.times.at(-1) as number;
  return missedSince(def, start, now, false, WALK_MAX).times.at(-1) as number;
}
