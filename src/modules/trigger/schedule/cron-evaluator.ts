/**
 * Next-fire search of a parsed cron in one zone, under the fixed-time and wildcard DST rules
 * (docs/trigger.md "DST rules"). Walks wall days from the day before `afterMs`, maps wall times to instants
 * with Intl offsets, and stops when no later wall time can map earlier; bounded by `limitMs`, never spins.
 */
import { DayMatcher, type DayRule } from './cron-days.js';
import { DAY_MS, type OffsetWindow, ZoneTimeline } from './zone-timeline.js';

/** Largest |UTC offset| of any zone (+14 h), plus a margin; bounds how far a wall day's instants spread. */
const MAX_ZONE_OFFSET_MS = 15 * 3_600_000;

/** An expression's expanded fields, as the search needs them. */
export interface CronFields {
  /** Allowed seconds, minutes and hours, each ascending. */
  seconds: readonly number[];
  minutes: readonly number[];
  hours: readonly number[];
  days: DayRule;
  /** Neither minute nor hour starts with `*`. */
  fixedTime: boolean;
}

/** Fire-time search for one expression in one zone. Plain class: no clock, no DI. */
export class CronEvaluator {
  private readonly days: DayMatcher;
  readonly timeline: ZoneTimeline;

  constructor(
    readonly fields: CronFields,
    timeZone: string,
  ) {
    this.days = new DayMatcher(fields.days);
    this.timeline = ZoneTimeline.of(timeZone);
  }

  /** The first fire strictly after `afterMs` and not after `limitMs` (epoch ms), or null when none. */
  next(afterMs: number, limitMs: number): number | null {
    const startWall = afterMs + this.timeline.offsetAt(afterMs);
    let day = Math.floor(startWall / DAY_MS) * DAY_MS - DAY_MS;
    let best: number | null = null;
    // A wall day's instants all come after its midnight read with +15 h: past the limit or the best, stop.
    while (day - MAX_ZONE_OFFSET_MS <= Math.min(limitMs, best ?? Infinity)) {
      const date = new Date(day);
      const [year, month] = [date.getUTCFullYear(), date.getUTCMonth() + 1];
      if (!this.days.monthAllowed(month)) {
        day = Date.UTC(year, month, 1);
        continue;
      }
      if (this.days.matches(year, month, date.getUTCDate())) {
        const window = this.windowOf(day);
        const found = this.firstOnDay(day, window, afterMs);
        if (found !== null && (best === null || found < best)) best = found;
        // The next wall day's instants all come after its midnight read with the largest offset.
        if (best !== null && best <= day + DAY_MS - window.maxOffset) break;
      }
      day += DAY_MS;
    }
    return best !== null && best <= limitMs ? best : null;
  }

  /** Earliest fire after `afterMs` among the wall times of the wall day starting at `day`, or null. */
  private firstOnDay(day: number, window: OffsetWindow, afterMs: number): number | null {
    // A wall time shown at or before afterMs under every offset of the window cannot fire after it.
    const from = Math.max(day, Math.floor((afterMs + window.minOffset) / 1000) * 1000);
    if (from >= day + DAY_MS) return null;
    const secondOfDay = (from - day) / 1000;
    const [h0, m0, s0] = [Math.floor(secondOfDay / 3600), Math.floor(secondOfDay / 60) % 60, secondOfDay % 60];
    const { hours, minutes, seconds } = this.fields;
    let best: number | null = null;
    search: for (const h of hours) {
      if (h < h0) continue;
      for (const m of minutes) {
        if (h === h0 && m < m0) continue;
        for (const s of seconds) {
          if (h === h0 && m === m0 && s < s0) continue;
          const wall = day + (h * 3600 + m * 60 + s) * 1000;
          if (best !== null && wall - window.maxOffset > best) break search;
          for (const t of this.firesAt(wall, window)) {
            if (t > afterMs && (best === null || t < best)) best = t;
          }
        }
      }
    }
    return best;
  }

  /** Whether wall time `wall` (calendar fields read as UTC, whole seconds) matches every field. */
  matchesWall(wall: number): boolean {
    const d = new Date(wall);
    const { hours, minutes, seconds } = this.fields;
    return (
      wall % 1000 === 0 &&
      this.days.matches(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()) &&
      hours.includes(d.getUTCHours()) &&
      minutes.includes(d.getUTCMinutes()) &&
      seconds.includes(d.getUTCSeconds())
    );
  }

  /** Matching wall times in `[fromWall, toWall)`, ascending, at most `max` (a gap is at most a day long). */
  wallsBetween(fromWall: number, toWall: number, max: number): number[] {
    const out: number[] = [];
    for (let day = Math.floor(fromWall / DAY_MS) * DAY_MS; day < toWall && out.length < max; day += DAY_MS) {
      const d = new Date(day);
      if (!this.days.matches(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate())) continue;
      for (const h of this.fields.hours)
        for (const m of this.fields.minutes)
          for (const s of this.fields.seconds) {
            const wall = day + (h * 3600 + m * 60 + s) * 1000;
            if (wall >= fromWall && wall < toWall && out.length < max) out.push(wall);
          }
    }
    return out;
  }

  /** The instants a matching wall time fires at, under the fixed-time or wildcard rule (the search's own rule). */
  firesAt(wall: number, window: OffsetWindow): number[] {
    const instants = window.instantsOf(wall);
    if (instants.length > 0) return this.fields.fixedTime ? [instants[0]] : instants;
    const shifted = this.fields.fixedTime ? window.shiftedOutOfGap(wall) : null;
    return shifted === null ? [] : [shifted];
  }

  /** The offset window of the wall day starting at `day`, as the search reads it. */
  windowOf(day: number): OffsetWindow {
    return this.timeline.cachedWindow(day);
  }
}
