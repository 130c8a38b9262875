import { SchedulerRegistry } from '@nestjs/schedule';
import { FakeClock } from '../../../../test/fakes/fake-clock.js';
import { registeredTimers } from './duty-timers.js';

const T0 = Date.UTC(2030, 0, 1);

/** The production timer source: timers on the Clock, listed in SchedulerRegistry while pending. */
describe(registeredTimers.name, () => {
  let clock: FakeClock;
  let registry: SchedulerRegistry;
  let fired: string[];

  beforeEach(() => {
    clock = new FakeClock(T0);
    registry = new SchedulerRegistry();
    fired = [];
  });

  const schedule = (name: string, delayMs: number) =>
    registeredTimers(clock, registry)(name, delayMs, () => fired.push(`${name}@${clock.now() - T0}`));

  it('should list each pending timer by name and forget it once it ran or was cancelled', () => {
    schedule('pump', 200);
    const cancel = schedule('load', 1000);
    expect(registry.getTimeouts().sort()).toEqual(['tw-leader-load', 'tw-leader-pump']);
    clock.advanceTo(T0 + 500);
    expect(fired).toEqual(['pump@200']);
    expect(registry.getTimeouts()).toEqual(['tw-leader-load']);
    cancel();
    expect([registry.getTimeouts(), clock.pendingCount]).toEqual([[], 0]);
  });

  it('should not run a timer whose entry was deleted from the registry (as ScheduleModule does on shutdown)', () => {
    schedule('pump', 200);
    registry.deleteTimeout('tw-leader-pump');
    schedule('pump', 300); // the name is free again
    clock.advanceTo(T0 + 1000);
    expect(fired).toEqual(['pump@300']);
  });

  it('should refuse a second pending timer of one name', () => {
    schedule('wheel', 10);
    expect(() => schedule('wheel', 20)).toThrow();
    expect(clock.pendingCount).toBe(1);
  });
});
