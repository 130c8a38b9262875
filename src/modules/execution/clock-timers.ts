import type { Clock } from '../../common/index.js';

/**
 * Runs `fn` every `intervalMs` ms through `clock`'s timers, like setInterval: the next run is set before `fn`
 * runs, so a slow `fn` does not stretch the cadence. Returns a function that stops it.
 */
export function every(clock: Clock, intervalMs: number, fn: () => void): () => void {
  let stopped = false;
  let cancel = () => undefined as void;
  const tick = () => {
    if (stopped) return;
    cancel = clock.schedule(intervalMs, tick);
    fn();
  };
  cancel = clock.schedule(intervalMs, tick);
  return () => {
    stopped = true;
    cancel();
  };
}

/** Resolves after `ms` ms of `clock`'s time. */
export function sleep(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.schedule(ms, resolve));
}
