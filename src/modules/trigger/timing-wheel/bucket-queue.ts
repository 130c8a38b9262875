import type { TimerTaskList } from './timer-task-list.js';

/**
 * Min-heap of buckets by expiration (Kafka's `DelayQueue`): peek O(1), pop O(log b). A bucket is queued at
 * most once and its expiration does not change while queued, so the heap holds at most levels × wheelSize.
 */
export class BucketQueue<T> {
  private readonly heap: TimerTaskList<T>[] = [];

  /** Number of queued buckets (empty ones included until they are popped). */
  get size(): number {
    return this.heap.length;
  }

  /** Queues a bucket in O(log b). */
  push(bucket: TimerTaskList<T>): void {
    const heap = this.heap;
    heap.push(bucket);
    let i = heap.length - 1;
    const key = bucket.getExpiration();
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent].getExpiration() <= key) break;
      heap[i] = heap[parent];
      i = parent;
    }
    heap[i] = bucket;
  }

  /** The bucket with the earliest expiration, without removing it; undefined when none. O(1). */
  peek(): TimerTaskList<T> | undefined {
    return this.heap[0];
  }

  /** Removes and returns the bucket with the earliest expiration; undefined when none. O(log b). */
  pop(): TimerTaskList<T> | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0 && last !== undefined) this.siftDown(last);
    return top;
  }

  /** Places `bucket` at the root and moves it down to restore the heap order. */
  private siftDown(bucket: TimerTaskList<T>): void {
    const heap = this.heap;
    const n = heap.length;
    const key = bucket.getExpiration();
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && heap[child + 1].getExpiration() < heap[child].getExpiration()) child++;
      if (heap[child].getExpiration() >= key) break;
      heap[i] = heap[child];
      i = child;
    }
    heap[i] = bucket;
  }
}
