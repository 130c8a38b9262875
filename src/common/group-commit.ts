/**
 * Group commit: one flush at a time, items submitted meanwhile go in the next (up to `maxBatch`); a flush
 * that throws rejects each of its items. An idle committer flushes at the end of the event-loop turn.
 */
export class GroupCommitter<T, R> {
  private queue: Array<{ item: T; resolve: (r: R) => void; reject: (e: unknown) => void }> = [];
  private flushing = false;

  /** @param flush writes a group and returns one result per item, in order. */
  constructor(
    private readonly flush: (items: T[]) => Promise<R[]>,
    private readonly maxBatch: number,
  ) {
    if (!(maxBatch >= 1)) throw new RangeError(`maxBatch must be >= 1, got ${maxBatch}`);
  }

  /** Items waiting for the next flush. */
  get pending(): number {
    return this.queue.length;
  }

  /** Queues `item`; resolves with its result once the flush that carried it has ended. */
  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.flushing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.flushing = true;
    try {
      // Callers of this event-loop turn join: no timer, ~no latency.
      await new Promise((resolve) => setImmediate(resolve));
      while (this.queue.length > 0) {
        const group = this.queue.splice(0, this.maxBatch);
        try {
          const results = await this.flush(group.map((g) => g.item));
          if (results.length !== group.length)
            throw new Error(`group flush returned ${results.length} results for ${group.length} items`);
          group.forEach((g, i) => g.resolve(results[i]));
        } catch (err) {
          for (const g of group) g.reject(err);
        }
      }
    } finally {
      this.flushing = false;
    }
  }
}
