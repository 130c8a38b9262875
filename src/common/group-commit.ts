/**
 * Group commit (the classic database technique): callers {@link submit} items one at a time; one flush
 * runs at a time, and the items that arrive while it runs wait and go together in the next one, up to
 * `maxBatch` per flush. An idle committer flushes at the end of the current event-loop turn (setImmediate:
 * the callers of that turn go together, no timer, no measurable latency); under load k callers share one
 * write. The flush returns one result per item, in order; if it throws, every item of
 * that flush is rejected with the error (none is silently dropped), and later flushes go on.
 */
export class GroupCommitter<T, R> {
  private queue: Array<{ item: T; resolve: (r: R) => void; reject: (e: unknown) => void }> = [];
  private flushing = false;

  /**
   * @param flush writes a group; must return exactly one result per item, in order.
   * @param maxBatch most items per flush (>= 1).
   */
  constructor(
    private readonly flush: (items: T[]) => Promise<R[]>,
    private readonly maxBatch: number,
  ) {
    if (!(maxBatch >= 1)) throw new RangeError(`maxBatch must be >= 1, got ${maxBatch}`);
  }

  /** Items waiting for a flush (not counting the one in progress). */
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
      // Let the callers of this event-loop turn join (handlers ending on one I/O event): no timer, ~no latency.
      await new Promise((resolve) => setImmediate(resolve));
      while (this.queue.length > 0) {
        const group = this.queue.splice(0, this.maxBatch);
        try {
          const results = await this.flush(group.map((g) => g.item));
          if (results.length !== group.length) throw new Error(`group flush returned ${results.length} results for ${group.length} items`);
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
