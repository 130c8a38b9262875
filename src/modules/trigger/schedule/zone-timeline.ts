/**
 * UTC offsets of an IANA zone, read from Intl (never the host's `TZ`). A wall time is written as the epoch
 * ms of its calendar fields read as UTC; instant `t` shows wall time `t + offset(t)`. Windows sample one
 * offset a day and bisect to the second, assuming at most one change a day (true of every IANA zone).
 */
const SECOND = 1000;
/** Length of a day in wall time, and the sampling step of a window. */
export const DAY_MS = 86_400_000;
const OFFSET = /^GMT(?:([+-])(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?)?$/;

/** A run of instants `[from, to)` with one UTC offset. `from`/`to` are ±Infinity at the window's ends. */
export interface OffsetSegment {
  from: number;
  to: number;
  offset: number;
}

/** The offsets in force around one wall day, and the wall-time mapping over them. */
export class OffsetWindow {
  readonly minOffset: number;
  readonly maxOffset: number;

  constructor(readonly segments: readonly OffsetSegment[]) {
    const offsets = segments.map((s) => s.offset);
    this.minOffset = Math.min(...offsets);
    this.maxOffset = Math.max(...offsets);
  }

  /** Instants (ascending) that show wall time `wall`: one normally, two in an overlap, none in a gap. */
  instantsOf(wall: number): number[] {
    if (this.segments.length === 1) return [wall - this.segments[0].offset];
    const out: number[] = [];
    for (const s of this.segments) {
      const t = wall - s.offset;
      if (t >= s.from && t < s.to) out.push(t);
    }
    return out.sort((a, b) => a - b);
  }

  /** For a wall time in a spring-forward gap, the instant it shifts to (later by the gap's length); else null. */
  shiftedOutOfGap(wall: number): number | null {
    for (let i = 1; i < this.segments.length; i++) {
      const [before, after] = [this.segments[i - 1], this.segments[i]];
      const at = after.from;
      if (before.offset < after.offset && wall >= at + before.offset && wall < at + after.offset)
        return wall - before.offset;
    }
    return null;
  }
}

const SPELLINGS_KEPT = 2_000;
const canonicalBySpelling = new Map<string, string>();

/**
 * The canonical name of an IANA zone (`America/New_York` for `america/NEW_YORK`): per-zone state is keyed by it,
 * since Intl accepts unboundedly many spellings of one zone (state keyed by the spelling would grow as callers
 * please). Memoised, SPELLINGS_KEPT at most. @throws RangeError for an unknown zone or a UTC offset
 */
export function canonicalZone(zone: string): string {
  let canonical = canonicalBySpelling.get(zone);
  if (canonical === undefined) {
    canonical = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
    // Node 22's Intl also takes a UTC offset ('+05:30', ECMA-402's offset zones): not an IANA zone, refused as on 20.
    if (/^[+-]/.test(canonical)) throw new RangeError(`not an IANA time zone: ${zone}`);
    if (canonicalBySpelling.size >= SPELLINGS_KEPT) canonicalBySpelling.clear();
    canonicalBySpelling.set(zone, canonical);
  }
  return canonical;
}

/** Offsets of one zone. Construct through {@link ZoneTimeline.of}, which validates nothing: pass a known zone. */
export class ZoneTimeline {
  private static readonly byZone = new Map<string, ZoneTimeline>();
  private readonly fmt: Intl.DateTimeFormat;
  /** Windows already computed, by wall day (shared by every job in this zone; bounded). */
  private readonly windows = new Map<number, OffsetWindow>();

  private constructor(readonly zone: string) {
    this.fmt = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
  }

  /** The (shared) timeline of `zone`, however spelled ({@link canonicalZone}). @throws RangeError */
  static of(zone: string): ZoneTimeline {
    const canonical = canonicalZone(zone);
    let timeline = ZoneTimeline.byZone.get(canonical);
    if (!timeline) {
      timeline = new ZoneTimeline(canonical);
      ZoneTimeline.byZone.set(canonical, timeline);
    }
    return timeline;
  }

  /** How many zones have a timeline (for tests: stays within the zones Intl knows). */
  static zonesKept(): number {
    return ZoneTimeline.byZone.size;
  }

  /** UTC offset at instant `ms`, in ms (positive east of Greenwich). */
  offsetAt(ms: number): number {
    const name = this.fmt.formatToParts(new Date(ms)).find((p) => p.type === 'timeZoneName')?.value ?? '';
    const m = OFFSET.exec(name);
    if (!m) throw new Error(`cannot read the UTC offset of ${this.zone} from '${name}'`);
    const abs = (Number(m[2] ?? 0) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0)) * SECOND;
    return m[1] === '-' ? -abs : abs;
  }

  /** {@link window}, memoised per wall day (at most 800 days kept). */
  cachedWindow(dayWall: number): OffsetWindow {
    let w = this.windows.get(dayWall);
    if (!w) {
      if (this.windows.size >= 800) this.windows.clear();
      w = this.window(dayWall);
      this.windows.set(dayWall, w);
    }
    return w;
  }

  /** Offset segments of the instants that can show a wall time of the day at `dayWall` (day -1 to +2). */
  window(dayWall: number): OffsetWindow {
    const samples = [-1, 0, 1, 2].map((k) => dayWall + k * DAY_MS);
    const offsets = samples.map((t) => this.offsetAt(t));
    const segments: OffsetSegment[] = [{ from: -Infinity, to: Infinity, offset: offsets[0] }];
    for (let k = 1; k < samples.length; k++) {
      if (offsets[k] === offsets[k - 1]) continue;
      const at = this.transitionBetween(samples[k - 1], samples[k], offsets[k - 1]);
      segments[segments.length - 1].to = at;
      segments.push({ from: at, to: Infinity, offset: offsets[k] });
    }
    return new OffsetWindow(segments);
  }

  /** First whole second in `(lo, hi]` whose offset differs from `loOffset` (bisection). */
  private transitionBetween(lo: number, hi: number, loOffset: number): number {
    let [a, b] = [Math.floor(lo / SECOND), Math.ceil(hi / SECOND)];
    while (b - a > 1) {
      const mid = Math.floor((a + b) / 2);
      if (this.offsetAt(mid * SECOND) === loOffset) a = mid;
      else b = mid;
    }
    return b * SECOND;
  }
}
