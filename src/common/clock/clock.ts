/** Time as a dependency, so tests can drive the loops (`test/fakes/fake-clock.ts`). Epoch ms, UTC. */
export interface Clock {
  now(): number;
  /** Runs `fn` once after `delayMs` (≥ 0); returns its cancel (a no-op once run). */
  schedule(delayMs: number, fn: () => void): () => void;
}

/** Injection token for the {@link Clock}. */
export const CLOCK = Symbol('CLOCK');

/** The real wall clock; its timers do not keep the process alive. */
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
