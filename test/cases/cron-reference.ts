/**
 * Brute-force reference for cron next-fire times under docs/trigger.md "DST rules", written independently of
 * cron-parser and of src/ (its own field parser, its own calendar and offset arithmetic) so the specs in
 * test/cases can check the schedule layer against it.
 *
 * It walks real time minute by minute (UTC) and reads the zone's UTC offset from Intl.DateTimeFormat,
 * so a wall time is simply "UTC instant + offset". At each minute `m`, with wall time `L`:
 * - wildcard job (minute or hour starts with `*`): fires iff `L` matches — a skipped wall time is never
 *   seen, a repeated one is seen twice;
 * - fixed-time job: fires iff `L` matches and no earlier instant showed the same wall time (first
 *   occurrence), or, right after a spring-forward gap of length `g`, iff `L - g` is a wall time that does
 *   not exist and matches (the gap shift: 02:30 → 03:30).
 * Day rules: day-of-month and day-of-week are ANDed when either starts with `*` or is `?`, else ORed.
 *
 * Offsets are read once per 15-minute UTC bucket: every transition of the zones used here (2018 onwards)
 * falls on a quarter hour (cron-zones.spec.ts checks this). To stay fast over years, a day that cannot
 * match is crossed in one jump when no clock change is near (else in steps that never pass its
 * midnight), and an hour that cannot match likewise; every minute that can fire is visited.
 */
const MIN = 60_000;
const QUARTER = 15 * MIN;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** Largest offset change of a real zone, and so the look-back for repeated or skipped wall times. */
const LOOKBACK = 3 * HOUR;
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

/** An expression read by the reference's own parser. */
export interface RefCron {
  sec: Set<number>;
  min: Set<number>;
  hour: Set<number>;
  month: Set<number>;
  domDays: Set<number>;
  domLast: boolean;
  /** `nW` (a day) or `LW` ('L'). */
  domNearWeekday: number | 'L' | null;
  dowDays: Set<number>;
  /** Weekdays of `nL` (last such weekday of the month). */
  dowLast: Set<number>;
  /** `[weekday, k]` pairs of `n#k`. */
  dowNth: Array<[number, number]>;
  and: boolean;
  fixedTime: boolean;
}

/** Parses 5 or 6 cron fields (numbers, names, ranges, steps, lists, `?`, `L`, `nW`, `LW`, `nL`, `n#k`). */
export function parseRef(expr: string): RefCron {
  const parts = expr.trim().toUpperCase().split(/\s+/);
  if (parts.length !== 5 && parts.length !== 6) throw new Error(`reference: ${parts.length} fields in '${expr}'`);
  const [sec, min, hour, dom, month, dow] = parts.length === 5 ? ['0', ...parts] : parts;
  const cron: RefCron = {
    sec: values(sec, 0, 59, []),
    min: values(min, 0, 59, []),
    hour: values(hour, 0, 23, []),
    month: values(month, 1, 12, MONTHS),
    domDays: new Set(),
    domLast: false,
    domNearWeekday: null,
    dowDays: new Set(),
    dowLast: new Set(),
    dowNth: [],
    and: /^[*?]/.test(dom) || /^[*?]/.test(dow),
    fixedTime: !min.startsWith('*') && !hour.startsWith('*'),
  };
  for (const item of dom.split(',')) {
    if (item === 'L') cron.domLast = true;
    else if (item === 'LW') cron.domNearWeekday = 'L';
    else if (item.endsWith('W')) cron.domNearWeekday = Number(item.slice(0, -1));
    else values(item === '?' ? '*' : item, 1, 31, []).forEach((d) => cron.domDays.add(d));
  }
  for (const item of dow.split(',')) {
    const weekday = (s: string) => values(s, 0, 7, DAYS).values().next().value! % 7;
    if (/^\w+L$/.test(item)) cron.dowLast.add(weekday(item.slice(0, -1)));
    else if (item.includes('#')) cron.dowNth.push([weekday(item.split('#')[0]), Number(item.split('#')[1])]);
    else values(item === '?' ? '*' : item, 0, 7, DAYS).forEach((d) => cron.dowDays.add(d % 7));
  }
  return cron;
}

/** Values of one plain field: lists of `*`, `a`, `a-b`, each with an optional `/step`. */
function values(field: string, lo: number, hi: number, names: string[]): Set<number> {
  const num = (s: string) => {
    const i = names.indexOf(s);
    const v = i >= 0 ? i + lo : Number(s);
    if (!/^\w+$/.test(s) || !Number.isInteger(v) || v < lo || v > hi) throw new Error(`reference: bad value '${s}'`);
    return v;
  };
  const out = new Set<number>();
  for (const item of field.split(',')) {
    const [range, stepText] = item.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    let [from, to] = [lo, hi];
    if (range !== '*') {
      const [a, b] = range.split('-');
      from = num(a);
      to = b !== undefined ? num(b) : stepText !== undefined ? hi : from;
    }
    if (!(step >= 1) || from > to) throw new Error(`reference: bad item '${item}'`);
    for (let v = from; v <= to; v += step) out.add(v);
  }
  return out;
}

/** Whether the calendar day (UTC fields of a wall-time number) passes month and day rules. */
export function dayMatches(cron: RefCron, wall: Date): boolean {
  const [y, mo, d, wd] = [wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate(), wall.getUTCDay()];
  if (!cron.month.has(mo + 1)) return false;
  const last = new Date(Date.UTC(y, mo + 1, 0)).getUTCDate();
  let near: number | null = null;
  if (cron.domNearWeekday !== null) {
    const target = cron.domNearWeekday === 'L' ? last : cron.domNearWeekday;
    const weekdayOf = (day: number) => new Date(Date.UTC(y, mo, day)).getUTCDay();
    if (target <= last) {
      // Nearest Monday-Friday, never leaving the month.
      const candidates = [target, target - 1, target + 1, target - 2, target + 2];
      near = candidates.find((c) => c >= 1 && c <= last && weekdayOf(c) % 6 !== 0) ?? null;
    }
  }
  const domOk = cron.domDays.has(d) || (cron.domLast && d === last) || d === near;
  const dowOk =
    cron.dowDays.has(wd) ||
    (cron.dowLast.has(wd) && d + 7 > last) ||
    cron.dowNth.some(([w, k]) => w === wd && Math.ceil(d / 7) === k);
  return cron.and ? domOk && dowOk : domOk || dowOk;
}

/** UTC offset of `zone` at `ms`, in ms, from Intl; memoised per 15-minute bucket. */
export class ZoneOffsets {
  private readonly cache = new Map<number, number>();
  private readonly fmt: Intl.DateTimeFormat;

  constructor(readonly zone: string) {
    this.fmt = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      ...{ year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' },
    });
  }

  at(ms: number): number {
    const bucket = Math.floor(ms / QUARTER) * QUARTER;
    let off = this.cache.get(bucket);
    if (off === undefined) {
      off = this.exact(bucket);
      this.cache.set(bucket, off);
    }
    return off;
  }

  /** Offset at exactly `ms` (no memo), to the second. */
  exact(ms: number): number {
    const f: Record<string, number> = {};
    for (const p of this.fmt.formatToParts(new Date(ms))) f[p.type] = Number(p.value);
    const floor = Math.floor(ms / MIN) * MIN;
    return Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute) - floor;
  }

  /** Offsets in force during the `LOOKBACK` before `ms`, other than the one at `ms`. */
  recent(ms: number): number[] {
    const now = this.at(ms);
    const out = new Set<number>();
    for (let k = 1; k * QUARTER <= LOOKBACK; k++) out.add(this.at(ms - k * QUARTER));
    out.delete(now);
    return [...out];
  }

  /** Whether some instant has wall time `wall` (a local wall time written as a UTC ms number). */
  exists(wall: number, offsets: number[]): boolean {
    return offsets.some((o) => this.at(wall - o) === o);
  }
}

const offsetsByZone = new Map<string, ZoneOffsets>();

function offsetsOf(zone: string): ZoneOffsets {
  let z = offsetsByZone.get(zone);
  if (!z) offsetsByZone.set(zone, (z = new ZoneOffsets(zone)));
  return z;
}

/** Whether wall time `wall` matches minute, hour and day rules. */
function wallMatches(cron: RefCron, wall: number): boolean {
  const d = new Date(wall);
  return cron.min.has(d.getUTCMinutes()) && cron.hour.has(d.getUTCHours()) && dayMatches(cron, d);
}

/** Wall times whose fire falls in the UTC minute `m`, under the docs/trigger.md rules. */
function firesInMinute(cron: RefCron, z: ZoneOffsets, m: number): number[] {
  const off = z.at(m);
  const wall = m + off;
  const earlier = z.at(m - LOOKBACK) === off ? [] : z.recent(m);
  if (!cron.fixedTime || earlier.length === 0) return wallMatches(cron, wall) ? [wall] : [];
  const out: number[] = [];
  // First occurrence: no earlier offset maps some earlier instant to this same wall time.
  const repeated = earlier.some((o) => o > off && z.at(wall - o) === o);
  if (!repeated && wallMatches(cron, wall)) out.push(wall);
  for (const o of earlier.filter((e) => e < off)) {
    const skipped = wall - (off - o);
    if (!z.exists(skipped, [off, ...earlier]) && wallMatches(cron, skipped)) out.push(skipped);
  }
  return out;
}

/**
 * The first `n` fire instants (epoch ms) strictly after `afterMs` for `expr` in `zone`, looking at most
 * `horizonMs` ahead (fewer are returned when the horizon ends first).
 */
export function referenceNextFires(
  expr: string,
  zone: string,
  afterMs: number,
  n: number,
  horizonMs = 5 * 366 * 86_400_000,
): number[] {
  const cron = parseRef(expr);
  const z = offsetsOf(zone);
  const seconds = [...cron.sec].sort((a, b) => a - b);
  const out: number[] = [];
  const end = afterMs + horizonMs;
  for (let m = Math.floor(afterMs / MIN) * MIN; out.length < n && m <= end;) {
    const off = z.at(m);
    const wall = m + off;
    if (!dayMatches(cron, new Date(wall)) && !dayMatches(cron, new Date(wall - LOOKBACK))) {
      // Nothing fires before the next wall midnight; offsets are constant within a UTC quarter hour.
      const toMidnight = DAY - (wall % DAY);
      const calmDay = z.at(m - LOOKBACK) === off && z.at(m + toMidnight + LOOKBACK) === off;
      if (calmDay) m += toMidnight;
      else m += toMidnight > 2 * LOOKBACK ? toMidnight - 2 * LOOKBACK : Math.min(toMidnight, QUARTER - (m % QUARTER));
      continue;
    }
    const calm = z.at(m - LOOKBACK) === off && z.at(m + HOUR) === off;
    if (calm && !cron.hour.has(new Date(wall).getUTCHours())) {
      m += HOUR - (wall % HOUR);
      continue;
    }
    if (firesInMinute(cron, z, m).length > 0) {
      for (const s of seconds) if (m + s * 1000 > afterMs && out.length < n) out.push(m + s * 1000);
    }
    m += MIN;
  }
  return out;
}

/** A change of a zone's UTC offset: at instant `at`, from `before` to `after` (ms). */
export interface Transition {
  at: number;
  before: number;
  after: number;
}

/** Offset changes of `zone` in `[fromMs, toMs)`: sampled every 12 h, then bisected to the minute. */
export function transitions(zone: string, fromMs: number, toMs: number): Transition[] {
  const z = offsetsOf(zone);
  const out: Transition[] = [];
  for (let t = fromMs; t < toMs; t += 12 * HOUR) {
    const [before, after] = [z.exact(t), z.exact(t + 12 * HOUR)];
    if (before === after) continue;
    let [lo, hi] = [t, t + 12 * HOUR];
    while (hi - lo > MIN) {
      const mid = lo + Math.floor((hi - lo) / 2 / MIN) * MIN;
      if (z.exact(mid) === before) lo = mid;
      else hi = mid;
    }
    out.push({ at: hi, before, after });
  }
  return out;
}
