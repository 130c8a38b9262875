// The fire load of many jobs (GET /api/schedules/load, docs/api.md "Read routes"): pure, bounded, epoch ms UTC.
import { nextCronFire } from './cron-schedule.js';
import { computeNextFireTime, type TriggerDef, TriggerType } from './schedule.js';

/** Fires one schedule iterates at most; a denser one is counted on from its rate. */
export const LOAD_FIRES_PER_SCHEDULE = 2_000;
/** Fires all schedules of one load iterate at most together (about 5-10 µs each for a cron). */
export const LOAD_FIRE_BUDGET = 50_000;
/** Herds one load answers (the largest, in time order), the codes one herd names, one bucket's width (ms). */
export const LOAD_MAX_HERDS = 50;
export const LOAD_HERD_CODES = 10;
export const LOAD_BUCKET_MS = 60_000;

/** A job as the load reads it: its code and schedule; `nextFireTime` is the next fire the leader will make. */
export interface LoadJob extends TriggerDef {
  code: string;
  nextFireTime: number | null;
}

/** What to compute: the span [from, to) (whole minutes), and the fires a second needs to be a herd. */
export interface LoadOptions {
  from: number;
  to: number;
  herd: number;
  perSchedule?: number;
  budget?: number;
}

/** One second where at least `herd` fires fall: its start, the fires, the first codes (by code) of its jobs. */
export interface Herd {
  at: number;
  fires: number;
  jobs: string[];
}

/** The load: fires per minute, the herds, the jobs counted and those counted on from a rate. */
export interface FireLoad {
  buckets: number[];
  herds: Herd[];
  jobs: number;
  estimatedJobs: number;
}

/** Jobs with one schedule: computed once, each fire counting `codes.length`. */
export interface Group {
  def: TriggerDef;
  codes: string[];
  fires: number[]; // iterated so far, ascending, before the span's end
  next: number | null; // the first fire not iterated yet (null: none is left)
  failed: boolean;
}

/** The span to plan, [from, to) in whole minutes, and the iteration bounds. */

export type PlanOptions = Omit<LoadOptions, 'herd'>;

/** The fires of `jobs` over a span, iterated once; {@link loadOf} reads any load within the span from it. */
export interface LoadPlan {
  readonly from: number;
  readonly to: number;
  readonly fires: number;
  readonly groups: readonly Group[];
}

/**
 * The load of `jobs` over [from, to): every fire the planner makes in it (CRON from its search, FIXED_RATE on its
 * grid from `nextFireTime`, FIXED_DELAY assuming runs take no time, as the preview does), counted once per fire
 * whatever the job's shardTotal. The budget is shared out in rounds: each schedule open gets an equal share, what
 * a finished one leaves goes to the others next round. A schedule cut (by its cap, or the budget) counts the rest
 * of the span at the rate of the fires it iterated (rounded per minute; those fires are in no herd). A job whose
 * schedule cannot be computed is left out. @throws RangeError when the span is not whole minutes or `herd` < 1.
 */
export function fireLoad(jobs: readonly LoadJob[], opts: LoadOptions): FireLoad {
  return loadOf(planLoad(jobs, opts), opts);
}

/** {@link fireLoad}'s iteration alone. @throws RangeError when the span is not whole minutes. */
export function planLoad(jobs: readonly LoadJob[], opts: PlanOptions): LoadPlan {
  const { groups, rounds } = planning(jobs, opts);
  for (const _ of rounds); // drained at once
  return planned(opts, groups);
}

/** {@link planLoad} giving the event loop back every `sliceMs` of iteration (a plan never holds the process up). */
export async function planLoadInSlices(jobs: readonly LoadJob[], opts: PlanOptions, sliceMs = 8): Promise<LoadPlan> {
  const { groups, rounds } = planning(jobs, opts);
  let slice = performance.now();
  for (const _ of rounds) {
    if (performance.now() - slice < sliceMs) continue;
    await new Promise((resolve) => setImmediate(resolve));
    slice = performance.now();
  }
  return planned(opts, groups);
}

function planning(jobs: readonly LoadJob[], opts: PlanOptions) {
  const { from, to } = opts;
  const minutes = (to - from) / LOAD_BUCKET_MS;
  if (!Number.isInteger(minutes) || minutes < 0 || from % 1000 !== 0) throw new RangeError('span of whole minutes');
  const groups = groupsOf(jobs, from);
  const rounds = iterateAll(groups, to, opts.budget ?? LOAD_FIRE_BUDGET, opts.perSchedule ?? LOAD_FIRES_PER_SCHEDULE);
  return { groups, rounds };
}

function planned(opts: PlanOptions, groups: Group[]): LoadPlan {
  return { from: opts.from, to: opts.to, fires: groups.reduce((n, g) => n + g.fires.length, 0), groups };
}

/** The load over [plan.from, to) read from `plan`. @throws RangeError: `to` outside the plan's span, `herd` < 1. */
export function loadOf(plan: LoadPlan, opts: { to: number; herd: number }): FireLoad {
  const { from } = plan;
  const { to, herd } = opts;
  const minutes = (to - from) / LOAD_BUCKET_MS;
  if (!Number.isInteger(minutes) || minutes < 0 || to > plan.to) throw new RangeError('span within the plan');
  if (!(herd >= 1)) throw new RangeError('herd must be at least 1');
  const exact = new Float64Array(minutes);
  const rated = new Float64Array(minutes + 1); // per-minute rate added from a minute on (a difference array)
  const partial = new Float64Array(minutes);
  const seconds = new Float64Array(minutes * 60);
  let counted = 0;
  let estimated = 0;
  for (const g of plan.groups) {
    if (g.failed) continue; // a stored schedule the search fails on: left out, as the leader marks it ERROR
    const w = g.codes.length;
    counted += w;
    for (const t of g.fires) {
      if (t >= to) break; // fires ascend
      exact[Math.floor((t - from) / LOAD_BUCKET_MS)] += w;
      seconds[Math.floor((t - from) / 1000)] += w;
    }
    const cut = g.next;
    if (cut === null || cut >= to || g.fires.length === 0) continue;
    const perMs = (g.fires.length / (cut - g.fires[0])) * w;
    const m = Math.floor((cut - from) / LOAD_BUCKET_MS);
    partial[m] += perMs * (from + (m + 1) * LOAD_BUCKET_MS - cut);
    rated[m + 1] += perMs * LOAD_BUCKET_MS;
    estimated += w;
  }
  let rate = 0;
  const buckets = Array.from(exact, (n, m) => {
    rate += rated[m];
    return Math.round(n + rate + partial[m]);
  });
  return { buckets, herds: herdsOf(seconds, plan.groups, from, herd), jobs: counted, estimatedJobs: estimated };
}

/**
 * Iterates the groups' fires before `to` in rounds, each open group taking an equal share of what is left of
 * `budget` (at least one fire), none more than `perSchedule`; yields after each schedule's share.
 */
function* iterateAll(groups: Group[], to: number, budget: number, perSchedule: number): Generator<void> {
  let open = groups.filter((g) => !g.failed);
  for (let round = 0; open.length > 0; round++) {
    const share = Math.floor(budget / open.length);
    if (share <= 0 && round > 0) return;
    const still: Group[] = [];
    for (const g of open) {
      budget -= step(g, to, Math.min(Math.max(1, share), perSchedule - g.fires.length));
      if (!g.failed && g.next !== null && g.next < to && g.fires.length < perSchedule) still.push(g);
      yield; // a pause point: one schedule's share at most is iterated between two
    }
    open = still;
  }
}

/** Up to `n` more fires of `g` before `to`. @returns how many searches it made; a failed one marks `g` failed. */
function step(g: Group, to: number, n: number): number {
  let made = 0;
  try {
    while (made < n && g.next !== null && g.next < to) {
      g.fires.push(g.next);
      made++;
      g.next = nextOf(g.def, g.next);
    }
  } catch {
    g.failed = true;
  }
  return made;
}

/** The jobs by schedule (CRON by expression and zone; the others by their first fire too), codes sorted. */
function groupsOf(jobs: readonly LoadJob[], from: number): Group[] {
  const byKey = new Map<string, Group | null>(); // null: a schedule whose first fire cannot be computed
  for (const j of jobs) {
    const fixed = j.triggerType === TriggerType.FIXED_RATE || j.triggerType === TriggerType.FIXED_DELAY;
    const key = `${j.triggerType}\n${j.triggerExpr ?? ''}\n${j.timeZone ?? ''}\n${fixed ? j.nextFireTime : ''}`;
    let g = byKey.get(key);
    if (g === undefined) {
      try {
        g = { def: j, codes: [], fires: [], next: firstFire(j, from), failed: false };
      } catch {
        g = null;
      }
      byKey.set(key, g);
    }
    g?.codes.push(j.code);
  }
  const groups = [...byKey.values()].filter((g): g is Group => g !== null);
  for (const g of groups) g.codes.sort();
  return groups;
}

/** The first fire at or after `from`: a FIXED_RATE or FIXED_DELAY job's own next fire, else the search from there. */
function firstFire(j: LoadJob, from: number): number | null {
  const next = j.nextFireTime;
  const fixed = j.triggerType === TriggerType.FIXED_RATE || j.triggerType === TriggerType.FIXED_DELAY;
  if (!fixed || next === null) return nextOf(j, from - 1);
  if (next >= from) return next;
  if (j.triggerType === TriggerType.FIXED_DELAY) return nextOf(j, from - 1);
  const period = Number(j.triggerExpr);
  return next + Math.ceil((from - next) / period) * period; // an overdue rate's grid, as backfill reads it
}

/** The planner's next fire after `t` (a cron's search stops at its horizon: null). */
function nextOf(def: TriggerDef, t: number): number | null {
  if (def.triggerType === TriggerType.CRON) return nextCronFire((def.triggerExpr ?? '').trim(), zone(def), t);
  return computeNextFireTime(def, t);
}

function zone(def: TriggerDef): string {
  return def.timeZone?.trim() || 'UTC';
}

/** The LOAD_MAX_HERDS largest seconds of at least `herd` fires (ties: the earlier), in time order, with codes. */
function herdsOf(seconds: Float64Array, groups: readonly Group[], from: number, herd: number): Herd[] {
  const found: number[] = [];
  seconds.forEach((n, s) => {
    if (n >= herd) found.push(s);
  });
  found.sort((a, b) => seconds[b] - seconds[a] || a - b);
  const chosen = new Map(found.slice(0, LOAD_MAX_HERDS).map((s) => [s, new Set<string>()]));
  for (const g of groups) {
    for (const t of g.fires) {
      const codes = chosen.get(Math.floor((t - from) / 1000));
      if (codes) for (const c of g.codes.slice(0, LOAD_HERD_CODES)) codes.add(c);
    }
  }
  return [...chosen]
    .sort(([a], [b]) => a - b)
    .map(([s, codes]) => ({
      at: from + s * 1000,
      fires: seconds[s],
      jobs: [...codes].sort().slice(0, LOAD_HERD_CODES),
    }));
}
