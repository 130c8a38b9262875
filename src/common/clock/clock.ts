/**
 * Time as a dependency (STYLE convention 6): trigger, dispatch and execution code reads the time only
 * through a Clock so tests can pin and advance it. All values are epoch milliseconds, UTC.
 */
export interface Clock {
  /** Current time in epoch milliseconds (UTC). */
  now(): number;
}

/** Injection token for the {@link Clock}. */
export const CLOCK = Symbol('CLOCK');

/** The real wall clock. */
export class SystemClock implements Clock {
  now(): number {
    return Date.now();
  }
}
