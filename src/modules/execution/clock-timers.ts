import type { Clock } from '../../common/index.js';

/** Resolves after `ms` ms of `clock`'s time. */
export function sleep(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.schedule(ms, resolve));
}
