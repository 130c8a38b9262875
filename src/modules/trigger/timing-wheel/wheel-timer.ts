import { ValidationError } from '../../../common/index.js';
import { BucketQueue } from './bucket-queue.js';
import { TimerTaskEntry } from './timer-task-entry.js';
import { TimerTaskList } from './timer-task-list.js';
import { TimingWheel } from './timing-wheel.js';

/** Cancels a pending callback; harmless after it ran or twice. */
export type Cancel = () => void;

/** Settings and ports of a {@link WheelTimer}; every time is epoch ms, every duration ms. */
export interface WheelTimerOptions<T> {
  /** Width of a level-0 bucket, ms: the delivery precision (an entry is at most `tickMs - 1` ms late). */
  tickMs: number;
  /** Buckets per level; each coarser level is `wheelSize` times wider. */
  wheelSize: number;
  /** Initial time of the wheel, epoch ms (normally `now()` at construction). */
  startMs: number;
  /** Runs `fn` once after `delayMs` ms (e.g. a setTimeout wrapper); the timer keeps at most one pending. */
  schedule: (delayMs: number, fn: () => void) => Cancel;
  /** Gets every payload due at one flush, in expiry order; if it throws, the batch still counts as delivered. */
  onExpired: (payloads: T[], nowMs: number) => void;
  /** Current time, epoch ms; must not go backwards. */
  now: () => number;
}

/** Longest delay handed to `schedule`, ms: Node's setTimeout fires at once past 2^31 - 1. */
const MAX_DELAY_MS = 2 ** 31 - 1;

/**
 * Driver of a {@link TimingWheel} keyed by id (after Kafka's `SystemTimer`): one pending `schedule` callback
 * for the earliest non-empty bucket, none while empty. Delivers each entry once, never before its expiry and
 * less than `tickMs` after it. Costs and the algorithm: docs/trigger.md "The timing wheel".
 */
export class WheelTimer<T> {
  private readonly queue = new BucketQueue<T>();
  private readonly wheel: TimingWheel<T>;
  private readonly entries = new Map<string, TimerTaskEntry<T>>();
  /** Entries that were already due when added; delivered at the next flush. */
  private readonly ready = new TimerTaskList<T>();
  private seq = 0;
  private armedAtMs: number | null = null;
  private cancelTimer: Cancel | null = null;
  private generation = 0;
  private closed = false;

  constructor(private readonly opts: WheelTimerOptions<T>) {
    this.wheel = new TimingWheel<T>(opts.tickMs, opts.wheelSize, opts.startMs, this.queue);
  }

  /** Number of entries not yet delivered or cancelled. */
  get size(): number {
    return this.entries.size;
  }

  /**
   * Schedules `payload` at `expireAtMs`, replacing an entry with the same id; a due entry is delivered at
   * the next flush, never inside `add`.
   * @throws ValidationError when `expireAtMs` is not finite.
   */
  add(id: string, expireAtMs: number, payload: T): void {
    if (!isFiniteNumber(expireAtMs)) throw new ValidationError('expireAtMs', 'expireAtMs must be a finite epoch ms');
    this.entries.get(id)?.remove();
    const entry = new TimerTaskEntry(id, expireAtMs, payload, this.seq++);
    this.entries.set(id, entry);
    const nowMs = this.opts.now();
    this.catchUp(nowMs);
    if (expireAtMs <= nowMs || !this.wheel.add(entry)) this.ready.add(entry);
    this.rearm();
  }

  /** Cancels the entry with this id in O(1); false when there is none. */
  cancel(id: string): boolean {
    const entry = this.entries.get(id);
    if (entry === undefined) return false;
    this.entries.delete(id);
    const list = entry.list;
    entry.remove();
    if (list !== null && list.isEmpty) this.rearm();
    return true;
  }

  /** Time of the next flush (epoch ms), or null when the timer holds nothing. */
  nextExpiry(): number | null {
    return this.nextTargetMs();
  }

  /** Cancels the pending callback for good; held entries stay undelivered. */
  close(): void {
    this.closed = true;
    this.disarm();
  }

  /** While no bucket is due, moves the wheel to now so new entries are filed relative to the present. */
  private catchUp(nowMs: number): void {
    const top = this.queue.peek();
    if (top === undefined || top.getExpiration() > nowMs) this.wheel.advanceClock(nowMs);
  }

  /** Sets the single pending callback for the next target, or removes it when there is nothing to do. */
  private rearm(): void {
    if (this.closed) return;
    const target = this.nextTargetMs();
    if (target === this.armedAtMs) return;
    this.disarm();
    if (target === null) return;
    const generation = this.generation;
    const delayMs = clamp(target - this.opts.now(), 0, MAX_DELAY_MS);
    this.armedAtMs = target;
    this.cancelTimer = this.opts.schedule(delayMs, () => this.onTimer(generation));
  }

  /** Cancels the pending callback; the generation bump makes a late one a no-op. */
  private disarm(): void {
    this.generation++;
    this.armedAtMs = null;
    const cancel = this.cancelTimer;
    this.cancelTimer = null;
    cancel?.();
  }

  /** Earliest time a flush has work, epoch ms, or null; pops empty buckets off the top of the heap. */
  private nextTargetMs(): number | null {
    if (!this.ready.isEmpty) return this.wheel.currentTimeMs;
    let top = this.queue.peek();
    while (top !== undefined && top.isEmpty) {
      this.queue.pop();
      top.flush(ignore);
      top = this.queue.peek();
    }
    return top === undefined ? null : top.getExpiration();
  }

  /** The scheduled callback: ignored when stale, else flushes. */
  private onTimer(generation: number): void {
    if (generation !== this.generation || this.closed) return;
    this.cancelTimer = null;
    this.armedAtMs = null;
    this.flush();
  }

  /** Collects every due entry, delivers them as one batch and re-arms (even if `onExpired` throws). */
  private flush(): void {
    const nowMs = this.opts.now();
    const due: TimerTaskEntry<T>[] = [];
    this.ready.flush((entry) => due.push(entry));
    this.drain(nowMs, due);
    try {
      if (due.length > 0) this.deliver(due, nowMs);
    } finally {
      this.rearm();
    }
  }

  /** Pops expired buckets in expiration order, cascading their entries; appends due ones to `due`. */
  private drain(nowMs: number, due: TimerTaskEntry<T>[]): void {
    const reinsert = (entry: TimerTaskEntry<T>): void => {
      if (!this.wheel.add(entry)) due.push(entry);
    };
    for (
      let bucket = this.queue.peek();
      bucket !== undefined && bucket.getExpiration() <= nowMs;
      bucket = this.queue.peek()
    ) {
      this.queue.pop();
      this.wheel.advanceClock(bucket.getExpiration());
      bucket.flush(reinsert);
    }
    // Safe now: every queued bucket expires after nowMs, so no slot can be reused too early.
    this.wheel.advanceClock(nowMs);
  }

  /** Forgets the entries, then calls `onExpired` once with their payloads in expiry order. */
  private deliver(due: TimerTaskEntry<T>[], nowMs: number): void {
    due.sort(byExpiry);
    const payloads: T[] = [];
    // Each entry is still the one mapped to its id: no user code ran since it was collected.
    for (const entry of due) {
      this.entries.delete(entry.id);
      payloads.push(entry.payload);
    }
    this.opts.onExpired(payloads, nowMs);
  }
}

function byExpiry<T>(a: TimerTaskEntry<T>, b: TimerTaskEntry<T>): number {
  return a.expirationMs - b.expirationMs || a.seq - b.seq;
}

function ignore(): void {}

function clamp(value: number, min: number, max: number): number {
  return value < min ? min : value > max ? max : value;
}

/** `Number.isFinite` without a global lookup (slow inside Jest's VM contexts). */
function isFiniteNumber(value: number): boolean {
  return value - value === 0;
}
