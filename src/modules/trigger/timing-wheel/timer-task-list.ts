import type { TimerTaskEntry } from './timer-task-entry.js';

/**
 * A bucket of the timing wheel (Kafka's `TimerTaskList`): an intrusive linked list with O(1) add and remove,
 * and the bucket's expiration (-1 = not scheduled), which changes only when the bucket is reused for a later
 * round: {@link setExpiration} reports that change so the wheel queues the bucket once per round.
 */
export class TimerTaskList<T> {
  private head: TimerTaskEntry<T> | null = null;
  private tail: TimerTaskEntry<T> | null = null;
  private count = 0;
  private expirationMs = -1;

  /** Number of entries in the bucket. */
  get size(): number {
    return this.count;
  }

  /** True when the bucket holds no entry. */
  get isEmpty(): boolean {
    return this.count === 0;
  }

  /** The bucket's expiration, epoch ms, or -1 when it is not scheduled. */
  getExpiration(): number {
    return this.expirationMs;
  }

  /** Sets the expiration (epoch ms); returns true when the value changed, i.e. the bucket must be (re)queued. */
  setExpiration(expirationMs: number): boolean {
    if (this.expirationMs === expirationMs) return false;
    this.expirationMs = expirationMs;
    return true;
  }

  /** Appends an entry in O(1), first unlinking it from any list that holds it (this one included). */
  add(entry: TimerTaskEntry<T>): void {
    entry.remove();
    entry.list = this;
    entry.prev = this.tail;
    entry.next = null;
    if (this.tail === null) this.head = entry;
    else this.tail.next = entry;
    this.tail = entry;
    this.count++;
  }

  /** Unlinks an entry in O(1). Returns false (and does nothing) when the entry is not in this list. */
  remove(entry: TimerTaskEntry<T>): boolean {
    if (entry.list !== this) return false;
    if (entry.prev === null) this.head = entry.next;
    else entry.prev.next = entry.next;
    if (entry.next === null) this.tail = entry.prev;
    else entry.next.prev = entry.prev;
    entry.list = entry.prev = entry.next = null;
    this.count--;
    return true;
  }

  /** Empties the bucket (expiration -1), then calls `fn` on each unlinked former entry in insertion order. */
  flush(fn: (entry: TimerTaskEntry<T>) => void): void {
    let entry = this.head;
    this.head = this.tail = null;
    this.count = 0;
    this.expirationMs = -1;
    while (entry !== null) {
      const next = entry.next;
      entry.list = entry.prev = entry.next = null;
      fn(entry);
      entry = next;
    }
  }

  /** Calls `fn` on each entry in insertion order without changing the list. */
  forEach(fn: (entry: TimerTaskEntry<T>) => void): void {
    for (let entry = this.head; entry !== null; entry = entry.next) fn(entry);
  }
}
