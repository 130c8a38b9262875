import { FakeClock } from '../../../test/fakes/fake-clock.js';
import { repeatEvery } from './repeat.js';

const T0 = Date.UTC(2030, 0, 1);

describe('repeatEvery', () => {
  it('should run every period from one period after the start, one timer at a time', () => {
    const clock = new FakeClock(T0);
    const runs: number[] = [];
    repeatEvery(clock, 1000, () => runs.push(clock.now() - T0));
    clock.advanceTo(T0 + 3500);
    expect(runs).toEqual([1000, 2000, 3000]);
    expect(clock.maxPending).toBe(1);
  });

  it('should keep a fixed rate when a round is late (the next is set from when the round ran)', () => {
    const clock = new FakeClock(T0);
    const runs: number[] = [];
    repeatEvery(clock, 1000, () => runs.push(clock.now() - T0));
    clock.setNow(T0 + 1500); // the timer fires 500 ms late, as a busy event loop would make it
    clock.runNextEarly();
    clock.advanceTo(T0 + 3000);
    expect(runs).toEqual([1500, 2500]);
  });

  it('should stop, also from inside a round, and stop again harmlessly', () => {
    const clock = new FakeClock(T0);
    let runs = 0;
    const stop = repeatEvery(clock, 1000, () => {
      if (++runs === 2) stop();
    });
    clock.advanceTo(T0 + 10_000);
    expect(runs).toBe(2);
    expect(clock.pendingCount).toBe(0);
    stop();
  });
});
