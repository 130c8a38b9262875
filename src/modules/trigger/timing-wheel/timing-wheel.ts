import { ValidationError } from '../../../common/index.js';
import { BucketQueue } from './bucket-queue.js';
import { TimerTaskEntry } from './timer-task-entry.js';
import { TimerTaskList } from './timer-task-list.js';

/**
 * Hierarchical timing wheel (after Kafka's `TimingWheel`): O(levels) add, O(1) remove, no per-tick work.
 * Buckets are queued on the shared {@link BucketQueue} when their expiration changes; unlike Kafka, the root
 * rounds expirations up to its tick, so an entry is never early. `advanceClock` may only be given the
 * expiration of the bucket just popped, or a time no queued bucket has reached. Worked example and
 * contract: docs/trigger.md "The timing wheel".
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
    if (!Number.isSafeInteger(tickMs) || tickMs <= 0)
      throw new ValidationError('tickMs', 'tickMs must be a positive integer');
    if (!Number.isSafeInteger(wheelSize) || wheelSize < 2)
      throw new ValidationError('wheelSize', 'wheelSize must be an integer >= 2');
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

  /** Files an entry in O(levels); false when it is already due (then in no bucket: the caller delivers it). */
  add(entry: TimerTaskEntry<T>): boolean {
    const exp = entry.expirationMs;
    const rem = mod(exp, this.tickMs);
    return this.place(entry, rem === 0 ? exp : exp - rem + this.tickMs);
  }

  /** Moves this level and the coarser ones to `timeMs`, rounded down to each tick; never back. */
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
