import { ValidationError } from '../../../common/index.js';
import { BucketQueue } from './bucket-queue.js';
import { TimerTaskEntry } from './timer-task-entry.js';
import { TimerTaskList } from './timer-task-list.js';

/**
 * Hierarchical timing wheel (after Kafka's `TimingWheel`): O(levels) add, O(1) remove, no per-tick work.
 *
 * A wheel of `wheelSize` buckets, each `tickMs` wide, covers `intervalMs = tickMs × wheelSize` ahead of
 * its `currentTimeMs` (always a multiple of `tickMs`). An entry whose due time falls in that span goes
 * into bucket `floor(due / tickMs) mod wheelSize`, and the bucket's expiration becomes the start of its
 * range. Anything farther goes to an overflow wheel, created on first use, whose tick is this wheel's
 * whole interval; that wheel overflows into the next one, and so on, so a far-future entry costs one
 * extra level per factor of `wheelSize`.
 *
 * No wheel ticks by itself. When a bucket's expiration changes (it was empty, or is reused for a later
 * round) the wheel pushes it onto the shared {@link BucketQueue}, a min-heap by expiration. The driver
 * pops the earliest bucket once its time has come, calls `advanceClock(bucket expiration)` and re-adds
 * every entry it held: an entry from a higher level lands in a finer level (cascading), and one that is
 * now due makes `add` return false, which tells the caller to deliver it.
 *
 * Never early (the one change from Kafka). Kafka files an entry by its raw expiration, so a bucket that
 * expires at the start of its range may run a task up to `tickMs` early. Here the root wheel rounds the
 * expiration up to a multiple of its `tickMs` ("due"), so a level-0 bucket holds entries of a single due
 * time and expires no earlier than any of them: an entry is delivered at most `tickMs - 1` ms late and
 * never before its expiration. Consequently `add` returns false exactly when `due < currentTimeMs +
 * tickMs`, i.e. when `expirationMs <= currentTimeMs`.
 *
 * Worked example: tickMs 10, wheelSize 5, startMs 1000. Level 0 covers [1010, 1050) in 10 ms buckets,
 * level 1 (tick 50) up to 1250, level 2 (tick 250) up to 2250.
 * - add(expiration 2137): due 2140 is past level 0 (< 1050) and level 1 (< 1250), so it goes to level 2,
 *   bucket floor(2140 / 250) = 8, expiration 2000. That bucket is queued.
 * - at 2000 the driver pops it and advances every level to 2000. Re-adding: 2140 ≥ 2000 + 50, so not
 *   level 0; 2140 < 2000 + 250, so level 1, bucket expiration floor(2140 / 50) × 50 = 2100. Queued.
 * - at 2100: re-added into level 0, bucket expiration 2140. Queued.
 * - at 2140: 2140 < 2140 + 10, so `add` returns false and the driver delivers it, 3 ms after 2137.
 *
 * Contract (single-threaded, but order matters): `advanceClock` must only be given the expiration of
 * the bucket just popped, in heap order, or a time no queued bucket has reached. Otherwise a bucket
 * slot could be reused for a later round while it still holds entries of an earlier one. The driver
 * ({@link WheelTimer}) keeps this contract; do not call `add` while a flush is in progress except from
 * the flush callback.
 */
export class TimingWheel<T> {
  /** Span this level covers ahead of its current time, ms (`tickMs × wheelSize`). */
  readonly intervalMs: number;
  private readonly buckets: TimerTaskList<T>[];
  private currentMs: number;
  private overflow: TimingWheel<T> | null = null;

  /**
   * @param tickMs width of one bucket, ms (positive integer)
   * @param wheelSize buckets per level (integer ≥ 2)
   * @param startMs initial time, epoch ms; rounded down to a multiple of `tickMs`
   * @param queue heap shared by all levels; buckets are pushed here when they need to expire
   */
  constructor(
    readonly tickMs: number,
    readonly wheelSize: number,
    startMs: number,
    readonly queue: BucketQueue<T> = new BucketQueue<T>(),
  ) {
    if (!Number.isSafeInteger(tickMs) || tickMs <= 0) throw new ValidationError('tickMs', 'tickMs must be a positive integer');
    if (!Number.isSafeInteger(wheelSize) || wheelSize < 2) throw new ValidationError('wheelSize', 'wheelSize must be an integer >= 2');
    if (!Number.isFinite(startMs)) throw new ValidationError('startMs', 'startMs must be a finite epoch ms');
    this.intervalMs = tickMs * wheelSize;
    this.currentMs = startMs - mod(startMs, tickMs);
    this.buckets = Array.from({ length: wheelSize }, () => new TimerTaskList<T>());
  }

  /** This level's time, epoch ms: a multiple of `tickMs`, never decreasing. */
  get currentTimeMs(): number {
    return this.currentMs;
  }

  /** The next coarser level, or null until an entry first needed it. */
  get overflowWheel(): TimingWheel<T> | null {
    return this.overflow;
  }

  /**
   * Files an entry in O(levels). Returns false when it is already due (`expirationMs <= currentTimeMs`):
   * the entry is then in no bucket and the caller must deliver it. Adding an entry that sits in some
   * list moves it.
   */
  add(entry: TimerTaskEntry<T>): boolean {
    const exp = entry.expirationMs;
    const rem = mod(exp, this.tickMs);
    return this.place(entry, rem === 0 ? exp : exp - rem + this.tickMs);
  }

  /**
   * Moves this level (and the coarser ones) to `timeMs`, rounded down to each level's tick. Never goes
   * back. See the class contract for which values are allowed.
   */
  advanceClock(timeMs: number): void {
    if (timeMs < this.currentMs + this.tickMs) return;
    this.currentMs = timeMs - mod(timeMs, this.tickMs);
    this.overflow?.advanceClock(this.currentMs);
  }

  /** Files an entry by its due time (a multiple of the root's tick, ms) at this level or a coarser one. */
  private place(entry: TimerTaskEntry<T>, dueMs: number): boolean {
    if (dueMs < this.currentMs + this.tickMs) return false;
    if (dueMs < this.currentMs + this.intervalMs) {
      const startMs = dueMs - mod(dueMs, this.tickMs);
      const bucket = this.buckets[mod(startMs / this.tickMs, this.wheelSize)];
      bucket.add(entry);
      // The expiration changes only for a fresh or reused bucket: queue it exactly once per round.
      if (bucket.setExpiration(startMs)) this.queue.push(bucket);
      return true;
    }
    this.overflow ??= new TimingWheel<T>(this.intervalMs, this.wheelSize, this.currentMs, this.queue);
    return this.overflow.place(entry, dueMs);
  }
}

/** Non-negative remainder, so rounding also holds for times before the epoch. */
function mod(value: number, divisor: number): number {
  const r = value % divisor;
  return r < 0 ? r + divisor : r;
}
