import type { Clock } from '../../src/common/index.js';

interface PendingTimer {
  readonly id: number;
  readonly atMs: number;
  readonly fn: () => void;
}

/**
 * A hand-driven clock with a fake one-shot scheduler: time moves only when a test
 * moves it, and scheduled callbacks run only from {@link runNext} / {@link advanceTo}, in due order.
 * It records the most callbacks ever pending at once and the time each callback ran, so tests can
 * assert "one timer only" and exact fire times. All times are epoch ms.
 */
export class FakeClock implements Clock {
  /** Times (epoch ms) at which callbacks ran, in order. */
  readonly fired: number[] = [];
  /** Largest number of callbacks pending at the same moment so far. */
  maxPending = 0;
  private timers: PendingTimer[] = [];
  private nextId = 0;

  constructor(private nowMs: number) {}

  /** Current fake time, epoch ms. */
  now = (): number => this.nowMs;

  /** Schedules `fn` to run `delayMs` ms from now; returns its cancel function. */
  schedule = (delayMs: number, fn: () => void): (() => void) => {
    if (!(delayMs >= 0)) throw new RangeError(`negative or NaN delay: ${delayMs}`);
    const timer = { id: this.nextId++, atMs: this.nowMs + delayMs, fn };
    this.timers.push(timer);
    if (this.timers.length > this.maxPending) this.maxPending = this.timers.length;
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  };

  /** Number of callbacks waiting to run. */
  get pendingCount(): number {
    return this.timers.length;
  }

  /** Due time of the earliest pending callback, epoch ms, or null. */
  get nextAtMs(): number | null {
    return this.earliest()?.atMs ?? null;
  }

  /** Sets the time without running anything (use to simulate a late wake-up). Never goes back. */
  setNow(ms: number): void {
    if (ms > this.nowMs) this.nowMs = ms;
  }

  /** Moves time to the earliest pending callback's due time and runs it; false when none is pending. */
  runNext(): boolean {
    const timer = this.earliest();
    if (timer === undefined) return false;
    this.timers = this.timers.filter((t) => t !== timer);
    if (timer.atMs > this.nowMs) this.nowMs = timer.atMs;
    this.fired.push(this.nowMs);
    timer.fn();
    return true;
  }

  /** Runs the earliest pending callback without moving time, as a timer that fires early would. */
  runNextEarly(): boolean {
    const timer = this.earliest();
    if (timer === undefined) return false;
    this.timers = this.timers.filter((t) => t !== timer);
    this.fired.push(this.nowMs);
    timer.fn();
    return true;
  }

  /** Runs, in order, every callback due at or before `ms` (including ones they schedule), then sets now to `ms`. */
  advanceTo(ms: number): void {
    for (let t = this.earliest(); t !== undefined && t.atMs <= ms; t = this.earliest()) this.runNext();
    this.setNow(ms);
  }

  /** Runs callbacks until none is pending; throws after `limit` runs (a runaway loop). Returns the count. */
  runAll(limit = 10_000_000): number {
    let runs = 0;
    while (this.runNext()) {
      if (++runs > limit) throw new Error(`more than ${limit} timer runs`);
    }
    return runs;
  }

  private earliest(): PendingTimer | undefined {
    let best: PendingTimer | undefined;
    for (const t of this.timers)
      if (best === undefined || t.atMs < best.atMs || (t.atMs === best.atMs && t.id < best.id)) best = t;
    return best;
  }
}

/** A clock whose time is `now()` (pinned or stepped by the test) and whose timers are real ones. */
export function clockAt(now: () => number): Clock {
  return {
    now,
    schedule: (delayMs, fn) => {
      const timer = setTimeout(fn, delayMs);
      return () => clearTimeout(timer);
    },
  };
}
