import type { Clock } from './clock.js';

/**
 * Runs `fn` every `periodMs` ms on `clock`, first `periodMs` from now, at a fixed rate as setInterval does: each
 * round's successor is set before the round runs, so a slow (async) `fn` never delays the next round. `fn` must
 * not throw (start async work with `void` and catch there). Returns the function that stops it (idempotent).
 */
export function repeatEvery(clock: Clock, periodMs: number, fn: () => void): () => void {
  let cancel = (): void => undefined;
  let stopped = false;
  const round = (): void => {
    if (stopped) return;
    cancel = clock.schedule(periodMs, round);
    fn();
  };
  cancel = clock.schedule(periodMs, round);
  return () => {
    stopped = true;
    cancel();
  };
}
