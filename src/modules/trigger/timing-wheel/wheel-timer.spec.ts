import { FakeClock } from '../../../../test/fakes/fake-clock.js';
import { ValidationError } from '../../../common/index.js';
import { WheelTimer } from './wheel-timer.js';

/** Tiny wheel as in Kafka's tests: level 0 tick 10, level 1 tick 50, level 2 tick 250, level 3 tick 1250. */
const START = 1000;

interface Delivery {
  payloads: string[];
  nowMs: number;
}

describe(WheelTimer.name, () => {
  let clock: FakeClock;
  let deliveries: Delivery[];
  let onExpired: (payloads: string[], nowMs: number) => void;
  let sut: WheelTimer<string>;

  beforeEach(() => {
    clock = new FakeClock(START);
    deliveries = [];
    onExpired = (payloads, nowMs) => deliveries.push({ payloads, nowMs });
    sut = new WheelTimer<string>({
      tickMs: 10,
      wheelSize: 5,
      startMs: START,
      schedule: clock.schedule,
      onExpired: (payloads, nowMs) => onExpired(payloads, nowMs),
      now: clock.now,
    });
  });

  afterEach(() => {
    expect(clock.maxPending).toBeLessThanOrEqual(1);
  });

  it('should have no timer and no next expiry when nothing is scheduled', () => {
    expect(clock.pendingCount).toBe(0);
    expect(sut.nextExpiry()).toBeNull();
    expect(sut.size).toBe(0);
  });

  it('should deliver at the end of the current tick when the entry is in the first bucket', () => {
    sut.add('a', 1005, 'a');
    expect(clock.nextAtMs).toBe(1010);
    clock.runAll();
    expect(deliveries).toEqual([{ payloads: ['a'], nowMs: 1010 }]);
  });

  it('should deliver exactly at the bucket time when the entry is in the next bucket', () => {
    sut.add('a', 1020, 'a');
    clock.runAll();
    expect(deliveries).toEqual([{ payloads: ['a'], nowMs: 1020 }]);
    expect(clock.fired).toEqual([1020]);
  });

  it('should cascade from level 2 to 1 to 0 and fire at the exact times when the entry is two levels up', () => {
    sut.add('x', 2137, 'x');
    expect(sut.nextExpiry()).toBe(2000);
    clock.runAll();
    expect(clock.fired).toEqual([2000, 2100, 2140]);
    expect(deliveries).toEqual([{ payloads: ['x'], nowMs: 2140 }]);
  });

  it('should cascade through every level when the entry is three levels up', () => {
    sut.add('y', 3507, 'y');
    clock.runAll();
    expect(clock.fired).toEqual([2500, 3500, 3510]);
    expect(deliveries).toEqual([{ payloads: ['y'], nowMs: 3510 }]);
  });

  it('should never deliver a cancelled entry when it is cancelled before expiry', () => {
    sut.add('a', 1020, 'a');
    sut.add('b', 1020, 'b');
    expect(sut.cancel('a')).toBe(true);
    expect(sut.size).toBe(1);
    clock.runAll();
    expect(deliveries).toEqual([{ payloads: ['b'], nowMs: 1020 }]);
  });

  it('should drop the timer when the only entry is cancelled', () => {
    sut.add('a', 5000, 'a');
    expect(clock.pendingCount).toBe(1);
    expect(sut.cancel('a')).toBe(true);
    expect(clock.pendingCount).toBe(0);
    expect(sut.nextExpiry()).toBeNull();
  });

  it('should re-target the timer when the earliest bucket is emptied by a cancel', () => {
    sut.add('a', 1020, 'a');
    sut.add('b', 1040, 'b');
    sut.cancel('a');
    expect(clock.nextAtMs).toBe(1040);
    expect(sut.nextExpiry()).toBe(1040);
  });

  it('should return false when cancelling after delivery, twice, or an unknown id', () => {
    sut.add('a', 1020, 'a');
    clock.runAll();
    expect(sut.cancel('a')).toBe(false);
    expect(sut.cancel('nope')).toBe(false);
    sut.add('b', 1100, 'b');
    expect(sut.cancel('b')).toBe(true);
    expect(sut.cancel('b')).toBe(false);
  });

  it('should deliver only the replacement when an id is re-added', () => {
    sut.add('a', 1100, 'old');
    sut.add('a', 1030, 'new');
    expect(sut.size).toBe(1);
    clock.runAll();
    expect(deliveries).toEqual([{ payloads: ['new'], nowMs: 1030 }]);
    sut.add('b', 1040, 'old');
    sut.add('b', 1300, 'later');
    clock.runAll();
    expect(deliveries.slice(1)).toEqual([{ payloads: ['later'], nowMs: 1300 }]);
  });

  it('should file a new entry relative to now with a single wake-up when the wheel has been idle', () => {
    clock.setNow(1_000_000);
    sut.add('a', 1_000_020, 'a');
    expect(sut.nextExpiry()).toBe(1_000_020);
    clock.runAll();
    expect(clock.fired).toEqual([1_000_020]);
    expect(deliveries).toEqual([{ payloads: ['a'], nowMs: 1_000_020 }]);
  });

  it('should deliver on the next flush, not inside add, when the entry is already due', () => {
    clock.setNow(1007);
    sut.add('past', 990, 'past');
    sut.add('now', 1007, 'now');
    expect(deliveries).toEqual([]);
    expect(clock.nextAtMs).toBe(1007);
    clock.runNext();
    expect(deliveries).toEqual([{ payloads: ['past', 'now'], nowMs: 1007 }]);
    expect(clock.pendingCount).toBe(0);
  });

  it('should deliver many entries of one bucket in one onExpired call when they expire together', () => {
    for (let i = 0; i < 100; i++) sut.add(`e${i}`, 1041 + (i % 9), `e${i}`);
    clock.runAll();
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0].payloads).toHaveLength(100);
    expect(deliveries[0].nowMs).toBe(1050);
  });

  it('should order a flush by expiry, first added first on ties, when a late wake-up collects several buckets', () => {
    sut.add('c', 1019, 'c');
    sut.add('far', 1300, 'far'); // level 2, bucket 1250: not reached by this flush
    sut.add('a', 1011, 'a');
    sut.add('b1', 1015, 'b1');
    sut.add('b2', 1015, 'b2');
    sut.add('d', 1120, 'd'); // level 1, cascaded during the same drain
    clock.setNow(1150);
    clock.runNext();
    expect(deliveries).toEqual([{ payloads: ['a', 'b1', 'b2', 'c', 'd'], nowMs: 1150 }]);
    expect(sut.size).toBe(1);
    clock.runAll();
    expect(deliveries[1]).toEqual({ payloads: ['far'], nowMs: 1300 });
  });

  it('should deliver nothing early when the scheduler fires before the bucket time', () => {
    sut.add('a', 1020, 'a');
    clock.setNow(1015);
    clock.runNextEarly();
    expect(deliveries).toEqual([]);
    expect(clock.nextAtMs).toBe(1020);
    clock.runAll();
    expect(deliveries).toEqual([{ payloads: ['a'], nowMs: 1020 }]);
  });

  it('should deliver entries added from inside onExpired in a later flush when they are already due', () => {
    onExpired = (payloads, nowMs) => {
      deliveries.push({ payloads, nowMs });
      if (payloads.includes('a')) sut.add('again', nowMs, 'again');
    };
    sut.add('a', 1020, 'a');
    clock.runAll();
    expect(deliveries).toEqual([
      { payloads: ['a'], nowMs: 1020 },
      { payloads: ['again'], nowMs: 1020 },
    ]);
  });

  it('should re-arm when onExpired throws', () => {
    onExpired = () => {
      throw new Error('boom');
    };
    sut.add('a', 1020, 'a');
    sut.add('b', 1030, 'b');
    expect(() => clock.runNext()).toThrow('boom');
    expect(clock.nextAtMs).toBe(1030);
    expect(sut.size).toBe(1);
  });

  it('should cancel the timer and arm no new one when closed', () => {
    sut.add('a', 1020, 'a');
    sut.close();
    expect(clock.pendingCount).toBe(0);
    sut.add('b', 1030, 'b');
    expect(clock.pendingCount).toBe(0);
  });

  it('should reject a non-finite expiry when added', () => {
    expect(() => sut.add('a', Number.NaN, 'a')).toThrow(ValidationError);
    expect(sut.size).toBe(0);
  });

  it('should keep one timer at most and none once empty when mixing adds, cancels and flushes', () => {
    for (let i = 0; i < 50; i++) sut.add(`k${i}`, 2000 - i * 17, `k${i}`);
    for (let i = 0; i < 50; i += 3) sut.cancel(`k${i}`);
    expect(clock.pendingCount).toBe(1);
    clock.runAll();
    expect(deliveries.flatMap((d) => d.payloads)).toHaveLength(50 - 17);
    expect(sut.size).toBe(0);
    expect(clock.pendingCount).toBe(0);
    expect(sut.nextExpiry()).toBeNull();
  });
});
