import type { Clock } from './clock.js';

/** Runs `fn` every `periodMs` as setInterval does (next round set before `fn` runs); `fn` must not throw. */
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
