/**
 * Time as a dependency: trigger, dispatch and execution code reads the time and sets its timers only
 * through a Clock, so tests can pin time and run the loops deterministically (`test/fakes/fake-clock.ts`).
 * All values are epoch milliseconds, UTC.
 */
export interface Clock {
  /** Current time in epoch milliseconds (UTC). */
  now(): number;
  /**
   * Runs `fn` once, `delayMs` ms from now (≥ 0). Returns a function that cancels it (a no-op once it ran).
   * The real clock's timers do not keep the process alive.
   */
  schedule(delayMs: number, fn: () => void): () => void;
}

/** Injection token for the {@link Clock}. */
export const CLOCK = Symbol('CLOCK');

/** The real wall clock. */
export class SystemClock implements Clock {
  now(): number {
    return Date.now();
  }

  schedule(delayMs: number, fn: () => void): () => void {
    const timer = setTimeout(fn, delayMs);
    timer.unref();
    return () => clearTimeout(timer);
  }
}
