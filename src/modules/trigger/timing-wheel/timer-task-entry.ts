import type { TimerTaskList } from './timer-task-list.js';

/**
 * One entry of the timing wheel (Kafka's `TimerTaskEntry`): id, due instant, payload, and the intrusive
 * links that only {@link TimerTaskList} writes; `list === null` means it is in no list.
 */
export class TimerTaskEntry<T> {
  /** @internal The list holding this entry, or null. Maintained by {@link TimerTaskList}. */
  list: TimerTaskList<T> | null = null;
  /** @internal Previous entry in `list`. */
  prev: TimerTaskEntry<T> | null = null;
  /** @internal Next entry in `list`. */
  next: TimerTaskEntry<T> | null = null;

  /** @param seq insertion sequence: first added first among equal expirations. */
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
