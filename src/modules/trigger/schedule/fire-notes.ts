/**
 * Schedule preview: the next fire times of a trigger, each with its wall-clock time and, when a clock change
 * (DST or another offset change) moved or merged it, a note saying how (docs/trigger.md "Preview and DST
 * notes"). The times come from the scheduler's own search; the notes re-read that search's rule
 * (`CronEvaluator.firesAt`) at each fire, never a second implementation. Epoch ms UTC throughout.
 */
import { BOUNDS, ValidationError } from '../../../common/index.js';
import { cronEvaluatorOf, nextCronFire } from './cron-schedule.js';
import type { CronEvaluator } from './cron-evaluator.js';
import { DEFAULT_TIME_ZONE, previewFireTimes, type TriggerDef, TriggerType, validateTrigger } from './schedule.js';
import { DAY_MS, type OffsetWindow, ZoneTimeline } from './zone-timeline.js';

/** Most fire times one preview answers. */
export const MAX_PREVIEW_COUNT = BOUNDS.previewCount.max;
/** How far before a fire a skipped gap is looked for when the preview's start is farther back, in ms. */
const SKIP_LOOKBACK_MS = 2 * DAY_MS;
/** Skipped wall times named in a note (the count says how many in all). */
const NAMED_SKIPS = 3;

/** What a clock change did to a fire (docs/trigger.md "DST rules"). */
export enum FireNoteKind {
  /** A fixed-time wall time in a spring-forward gap: fires later by the gap's length. */
  GAP_SHIFTED = 'GAP_SHIFTED',
  /** Wall times of a wildcard schedule in a gap did not fire (elapsed time rule); on the first fire after it. */
  GAP_SKIPPED = 'GAP_SKIPPED',
  /** A fixed-time wall time repeated by a fall-back: fires once, at its first occurrence. */
  OVERLAP_FIRST_ONLY = 'OVERLAP_FIRST_ONLY',
  /** A wildcard schedule's wall time repeated by a fall-back: fires at both; this is one of them. */
  OVERLAP_BOTH = 'OVERLAP_BOTH',
  /** Two matching wall times land on this one instant (a shifted time meets a real one): fires once. */
  SAME_INSTANT = 'SAME_INSTANT',
}

/** A note on one fire: its kind and a sentence for people. */
export interface FireNote {
  kind: FireNoteKind;
  detail: string;
}

/** One previewed fire: the instant, the wall-clock time in the zone with its offset, and a note if any. */
export interface PreviewedFire {
  fireTime: number;
  /** ISO-8601 local date-time with the zone's offset then, e.g. `2026-03-29T03:30:00+02:00`. */
  local: string;
  note?: FireNote;
}

/** A clock change: at instant `at` the offset goes from `before` to `after` (ms). */
interface Transition {
  at: number;
  before: number;
  after: number;
}

/**
 * Up to `count` fires of `def` strictly after `fromMs` (fewer when the trigger stops, or a cron has no fire
 * within 8 years of the previous one: the engine's search horizon). FIXED_RATE and FIXED_DELAY count from
 * `fromMs`, FIXED_DELAY as if each run took no time.
 * @throws ValidationError naming `triggerType`, `triggerExpr`, `timeZone` or `count`, as job creation does.
 */
export function previewSchedule(def: TriggerDef, fromMs: number, count: number): PreviewedFire[] {
  if (!Number.isInteger(count) || count < 1 || count > MAX_PREVIEW_COUNT) {
    throw new ValidationError('count', `count must be an integer between 1 and ${MAX_PREVIEW_COUNT}`);
  }
  validateTrigger(def);
  const times: number[] = [];
  if (def.triggerType === TriggerType.CRON) {
    const [expr, zone] = [cronOf(def), zoneOf(def)];
    let cursor: number | null = fromMs;
    while (times.length < count && (cursor = nextCronFire(expr, zone, cursor)) !== null) times.push(cursor);
  } else {
    times.push(...previewFireTimes(def, fromMs, count));
  }
  return describeFires(def, times, fromMs);
}

/**
 * `times` (ascending fires of `def`, as the engine computed them) with their wall-clock times and notes.
 * `fromMs` is the instant they were computed after (null: unknown; gaps are then looked for 2 days back).
 * Never throws on a valid definition; a note that cannot be worked out is left off.
 */
export function describeFires(def: TriggerDef, times: readonly number[], fromMs: number | null): PreviewedFire[] {
  const zone = zoneOf(def);
  if (times.length === 0) return [];
  // A zone the fires were computed in is valid; a corrupt stored one shows UTC rather than failing a read.
  const timeline = attempt(() => ZoneTimeline.of(zone)) ?? ZoneTimeline.of(DEFAULT_TIME_ZONE);
  const evaluator = def.triggerType === TriggerType.CRON ? attempt(() => cronEvaluatorOf(cronOf(def), zone)) : null;
  return times.map((t, i) => {
    const local = localTime(t, timeline.offsetAt(t));
    const prev = i > 0 ? times[i - 1] : (fromMs ?? t - SKIP_LOOKBACK_MS);
    const note = evaluator ? attempt(() => noteOf(evaluator, zone, t, prev)) : null;
    return note ? { fireTime: t, local, note } : { fireTime: t, local };
  });
}

/** The note of fire `t` of a cron (the previous fire, or the start, at `prev`), or null when nothing moved it. */
function noteOf(ev: CronEvaluator, zone: string, t: number, prev: number): FireNote | null {
  const wall = t + ev.timeline.offsetAt(t);
  const day = dayOf(wall);
  const offsets = new Set([day - DAY_MS, day].flatMap((d) => ev.windowOf(d).segments.map((s) => s.offset)));
  // The wall times the search would fire at t: its own wall time, or one shifted out of a gap.
  const sources = [...offsets]
    .map((o) => t + o)
    .filter((s) => ev.matchesWall(s) && ev.firesAt(s, ev.windowOf(dayOf(s))).includes(t))
    .sort((a, b) => a - b);
  if (sources.length > 1) return sameInstant(ev, zone, sources);
  if (sources.length === 1 && sources[0] !== wall) return gapShifted(ev, zone, sources[0], wall, t);
  const window = ev.windowOf(day);
  const instants = window.instantsOf(wall);
  if (instants.length > 1) return overlap(ev, zone, wall, instants, t);
  return ev.fields.fixedTime ? null : gapSkipped(ev, zone, Math.max(prev, t - SKIP_LOOKBACK_MS), t);
}

function gapShifted(ev: CronEvaluator, zone: string, source: number, wall: number, t: number): FireNote {
  const gap = transitionAround(ev.windowOf(dayOf(source)), source, 'gap');
  const change = gap ? ` (${clocks(gap)})` : '';
  const offset = offsetText(ev.timeline.offsetAt(t));
  return {
    kind: FireNoteKind.GAP_SHIFTED,
    detail:
      `${hm(source)} does not exist on ${date(source)} in ${zone}${change}: fires ${duration(wall - source)} ` +
      `later, at ${hm(wall)} (UTC${offset})`,
  };
}

function overlap(ev: CronEvaluator, zone: string, wall: number, instants: number[], t: number): FireNote {
  const change = transitionAround(ev.windowOf(dayOf(wall)), wall, 'overlap');
  const head = `${hm(wall)} happens twice on ${date(wall)} in ${zone}${change ? ` (${clocks(change)})` : ''}`;
  const offsets = instants.map((i) => `UTC${offsetText(wall - i)}`);
  if (ev.fields.fixedTime) {
    return {
      kind: FireNoteKind.OVERLAP_FIRST_ONLY,
      detail:
        `${head}: a fixed-time schedule fires once, at the first (${offsets[0]}); ` +
        `the second (${offsets[1]}) does not fire`,
    };
  }
  const which = instants.indexOf(t) === 0 ? `the first (${offsets[0]})` : `the second (${offsets[1]})`;
  return {
    kind: FireNoteKind.OVERLAP_BOTH,
    detail: `${head}: a schedule with * in its minute or hour field fires at both; this is ${which}`,
  };
}

function sameInstant(ev: CronEvaluator, zone: string, sources: number[]): FireNote {
  const shifted = sources.filter((s) => ev.windowOf(dayOf(s)).instantsOf(s).length === 0);
  const why = shifted.map((s) => {
    const gap = transitionAround(ev.windowOf(dayOf(s)), s, 'gap');
    return `${hm(s)} does not exist${gap ? `, ${clocks(gap)},` : ''} and moves later`;
  });
  return {
    kind: FireNoteKind.SAME_INSTANT,
    detail:
      `${sources.map(hm).join(' and ')} on ${date(sources[0])} in ${zone} fall on the same instant` +
      `${why.length ? ` (${why.join('; ')})` : ''}: fires once`,
  };
}

/** A wildcard schedule's wall times that a gap in `(after, t]` swallowed, or null when none. */
function gapSkipped(ev: CronEvaluator, zone: string, after: number, t: number): FireNote | null {
  const gaps = new Map<number, Transition>();
  for (let d = dayOf(after + ev.timeline.offsetAt(after)); d <= t + DAY_MS; d += DAY_MS) {
    for (const tr of transitionsOf(ev.windowOf(d)))
      if (tr.after > tr.before && tr.at > after && tr.at <= t) gaps.set(tr.at, tr);
  }
  for (const gap of gaps.values()) {
    // Only the first fire at or after the clock change carries the note (with an unknown start, too).
    if (ev.next(gap.at - 1, t) !== t) continue;
    const walls = ev.wallsBetween(gap.at + gap.before, gap.at + gap.after, 10_000);
    if (walls.length === 0) continue;
    const named = walls.slice(0, NAMED_SKIPS).map(hm).join(', ') + (walls.length > NAMED_SKIPS ? ', …' : '');
    const from = gap.at + gap.before;
    return {
      kind: FireNoteKind.GAP_SKIPPED,
      detail:
        `${hm(from)} to ${hm(gap.at + gap.after)} does not exist on ${date(from)} in ${zone} (${clocks(gap)}): a ` +
        `schedule with * in its minute or hour field follows elapsed time, so ${walls.length} matching time(s) in ` +
        `it (${named}) did not fire before this one`,
    };
  }
  return null;
}

function transitionsOf(window: OffsetWindow): Transition[] {
  const s = window.segments;
  return s.slice(1).map((after, i) => ({ at: after.from, before: s[i].offset, after: after.offset }));
}

/** The gap (clocks forward) or overlap (clocks back) that wall time `wall` falls in, if any. */
function transitionAround(window: OffsetWindow, wall: number, kind: 'gap' | 'overlap'): Transition | null {
  for (const tr of transitionsOf(window)) {
    const [lo, hi] = [tr.at + Math.min(tr.before, tr.after), tr.at + Math.max(tr.before, tr.after)];
    if (tr.after > tr.before === (kind === 'gap') && wall >= lo && wall < hi) return tr;
  }
  return null;
}

function clocks(tr: Transition): string {
  const way = tr.after > tr.before ? 'forward' : 'back';
  const offsets = `UTC${offsetText(tr.before)} → UTC${offsetText(tr.after)}`;
  const [from, to] = [tr.at + tr.before, tr.at + tr.after];
  // A change of a day or more (Apia, 2011-12-30) names the dates too.
  const [a, b] = date(from) === date(to) ? [hm(from), hm(to)] : [`${date(from)} ${hm(from)}`, `${date(to)} ${hm(to)}`];
  return `clocks go ${way} from ${a} to ${b}, ${offsets}`;
}

/** Instant `t` as ISO-8601 local time with offset `offset` (ms); milliseconds only when not zero. */
export function localTime(t: number, offset: number): string {
  const text = new Date(t + offset).toISOString();
  const fields = text.endsWith('.000Z') ? text.slice(0, -5) : text.slice(0, -1);
  return fields + offsetText(offset);
}

function offsetText(offset: number): string {
  const abs = Math.abs(Math.round(offset / 1000));
  const [h, m, s] = [Math.floor(abs / 3600), Math.floor(abs / 60) % 60, abs % 60];
  const hhmm = `${offset < 0 ? '-' : '+'}${pad(h)}:${pad(m)}`;
  return s ? `${hhmm}:${pad(s)}` : hhmm;
}

function hm(wall: number): string {
  const text = new Date(wall).toISOString().slice(11, 19);
  return text.endsWith(':00') ? text.slice(0, 5) : text;
}

function date(wall: number): string {
  return new Date(wall).toISOString().slice(0, 10);
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  const parts = [
    [Math.floor(s / 3600), 'h'],
    [Math.floor(s / 60) % 60, 'min'],
    [s % 60, 's'],
  ] as const;
  return parts
    .filter(([n]) => n > 0)
    .map(([n, u]) => `${n} ${u}`)
    .join(' ');
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function dayOf(wall: number): number {
  return Math.floor(wall / DAY_MS) * DAY_MS;
}

/** `fn()`, or null when it throws (a note is an explanation: never worth failing the answer for). */
function attempt<T>(fn: () => T | null): T | null {
  try {
    return fn();
  } catch {
    return null;
  }
}

function cronOf(def: TriggerDef): string {
  return (def.triggerExpr ?? '').trim();
}

function zoneOf(def: TriggerDef): string {
  return def.timeZone?.trim() || DEFAULT_TIME_ZONE;
}
