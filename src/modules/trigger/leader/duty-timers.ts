import type { SchedulerRegistry } from '@nestjs/schedule';
import type { Clock } from '../../../common/index.js';
import type { DutyTimers } from './duty-runner.js';

/** Prefix of the leader's timers in SchedulerRegistry: `tw-leader-<duty>`. */
export const LEADER_TIMER_PREFIX = 'tw-leader-';

/**
 * The production timer source of the leader's duties: timers on `clock`, each listed while pending in
 * SchedulerRegistry as the timeout `tw-leader-<name>`, and run only while listed (docs/trigger.md "The leader's loop").
 * @throws Error (the registry's) when a timer of that name is already pending.
 */
export function registeredTimers(clock: Clock, registry: SchedulerRegistry): DutyTimers {
  return (name, delayMs, fn) => {
    const key = LEADER_TIMER_PREFIX + name;
    // Deleting an entry calls clearTimeout(handle), a no-op for this object: `mine()` is what stops the timer.
    const handle = { key };
    const mine = () => registry.doesExist('timeout', key) && registry.getTimeout(key) === handle;
    registry.addTimeout(key, handle);
    const cancel = clock.schedule(delayMs, () => {
      if (!mine()) return;
      registry.deleteTimeout(key);
      fn();
    });
    return () => {
      cancel();
      if (mine()) registry.deleteTimeout(key);
    };
  };
}
