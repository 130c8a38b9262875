import type { TimerTaskList } from './timer-task-list.js';

/**
 * One scheduled slot in the timing wheel (Kafka's `TimerTaskEntry`): an id, the instant it is due and the
 * caller's payload, plus the intrusive links of the {@link TimerTaskList} that currently holds it.
 *
 * Invariant: `list`, `prev` and `next` are written only by {@link TimerTaskList}; an entry is in at most
 * one list at a time, and `list === null` means it is in none (delivered, cancelled or being moved).
 */
export class TimerTaskEntry<T> {
  /** @internal The list holding this entry, or null. Maintained by {@link TimerTaskList}. */
  list: TimerTaskList<T> | null = null;
  /** @internal Previous entry in `list`. */
  prev: TimerTaskEntry<T> | null = null;
  /** @internal Next entry in `list`. */
  next: TimerTaskEntry<T> | null = null;

  /**
   * @param id caller's key for the entry (unique within one timer)
   * @param expirationMs instant the entry is due, epoch ms; it is never delivered before this
   * @param payload caller's value, handed back on expiry
   * @param seq insertion sequence number, breaks ties between equal expirations (first added first)
   */
  constructor(
    readonly id: string,
    readonly expirationMs: number,
    readonly payload: T,
    readonly seq: number = 0,
  ) {}

  /** Unlinks the entry from whatever list holds it in O(1). Returns false when it was in none. */
  remove(): boolean {
    return this.list !== null && this.list.remove(this);
  }
}
