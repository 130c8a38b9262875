import { ValidationError } from '../../../common/index.js';
import { BucketQueue } from './bucket-queue.js';
import { TimerTaskEntry } from './timer-task-entry.js';
import { TimingWheel } from './timing-wheel.js';

/** Tiny wheel as in Kafka's TimingWheelTest: level 0 [1010,1050), then ticks 50, 250 and 1250. */
const TICK = 10;
const SIZE = 5;
const START = 1000;

describe(TimingWheel.name, () => {
  let queue: BucketQueue<string>;
  let sut: TimingWheel<string>;
  const entry = (id: string, exp: number): TimerTaskEntry<string> => new TimerTaskEntry(id, exp, id);

  /** Minimal driver: pops buckets due by `untilMs` in order, advances, re-adds; returns popped expirations. */
  function drive(untilMs: number, due: Array<[string, number]>): number[] {
    const popped: number[] = [];
    for (let b = queue.peek(); b !== undefined && b.getExpiration() <= untilMs; b = queue.peek()) {
      queue.pop();
      popped.push(b.getExpiration());
      sut.advanceClock(b.getExpiration());
      b.flush((e) => {
        if (!sut.add(e)) due.push([e.id, sut.currentTimeMs]);
      });
    }
    return popped;
  }

  beforeEach(() => {
    queue = new BucketQueue<string>();
    sut = new TimingWheel<string>(TICK, SIZE, START, queue);
  });

  it('should round the start time down to a tick when constructed', () => {
    expect(new TimingWheel<string>(TICK, SIZE, 1007).currentTimeMs).toBe(1000);
  });

  it('should reject a bad tick or size when constructed', () => {
    expect(() => new TimingWheel<string>(0, SIZE, START)).toThrow(ValidationError);
    expect(() => new TimingWheel<string>(1.5, SIZE, START)).toThrow(ValidationError);
    expect(() => new TimingWheel<string>(TICK, 1, START)).toThrow(ValidationError);
  });

  it('should return false when the entry has already expired', () => {
    expect(sut.add(entry('past', 990))).toBe(false);
    expect(sut.add(entry('now', 1000))).toBe(false);
    expect(queue.size).toBe(0);
  });

  it('should file an entry in the next bucket when it is due inside the current tick', () => {
    // Kafka would report 1001..1009 as expired and run it early; rounding up keeps it for 1010.
    expect(sut.add(entry('a', 1001))).toBe(true);
    expect(queue.peek()!.getExpiration()).toBe(1010);
  });

  it('should file entries of one tick in one bucket and queue that bucket once when they share it', () => {
    ['a', 'b', 'c'].forEach((id, i) => sut.add(entry(id, 1011 + i)));
    expect(queue.size).toBe(1);
    expect(queue.peek()!.getExpiration()).toBe(1020);
    expect(queue.peek()!.size).toBe(3);
  });

  it('should keep level 0 and create no overflow wheel when entries are within one interval', () => {
    sut.add(entry('a', 1010));
    sut.add(entry('b', 1040));
    expect(sut.overflowWheel).toBeNull();
    expect([queue.pop()!.getExpiration(), queue.pop()!.getExpiration()]).toEqual([1010, 1040]);
  });

  it('should create overflow wheels lazily with tick = tickMs × wheelSize when entries are far ahead', () => {
    sut.add(entry('l1', 1060));
    expect(sut.overflowWheel!.tickMs).toBe(50);
    expect(sut.overflowWheel!.overflowWheel).toBeNull();
    sut.add(entry('l2', 1300));
    expect(sut.overflowWheel!.overflowWheel!.tickMs).toBe(250);
    sut.add(entry('l3', 3507));
    expect(sut.overflowWheel!.overflowWheel!.overflowWheel!.tickMs).toBe(1250);
    expect(sut.overflowWheel!.overflowWheel!.overflowWheel!.overflowWheel).toBeNull();
    const expirations: number[] = [];
    while (queue.size > 0) expirations.push(queue.pop()!.getExpiration());
    expect(expirations).toEqual([1050, 1250, 2500]);
  });

  it('should not move the clock when advanced by less than a tick', () => {
    sut.advanceClock(1009);
    expect(sut.currentTimeMs).toBe(1000);
    sut.advanceClock(1047);
    expect(sut.currentTimeMs).toBe(1040);
    sut.advanceClock(1020);
    expect(sut.currentTimeMs).toBe(1040);
  });

  it('should cascade from level 2 to 1 to 0 when each popped bucket is advanced to', () => {
    sut.add(entry('x', 2137));
    const due: Array<[string, number]> = [];
    expect(drive(2139, due)).toEqual([2000, 2100]);
    expect(due).toEqual([]);
    expect(drive(2140, due)).toEqual([2140]);
    expect(due).toEqual([['x', 2140]]);
  });

  it('should cascade from level 3 down when an entry is three levels up', () => {
    sut.add(entry('y', 3507));
    const due: Array<[string, number]> = [];
    expect(drive(10_000, due)).toEqual([2500, 3500, 3510]);
    expect(due).toEqual([['y', 3510]]);
  });

  it('should reuse a bucket slot for a later round when the wheel has moved past it', () => {
    sut.add(entry('a', 1010));
    const due: Array<[string, number]> = [];
    drive(1010, due);
    sut.add(entry('b', 1060)); // same level-0 slot as 1010 once the wheel is at 1050+
    drive(1060, due);
    expect(due).toEqual([
      ['a', 1010],
      ['b', 1060],
    ]);
  });
});
