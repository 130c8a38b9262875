import { GroupCommitter } from '../../common/index.js';

/** Failed acks kept for another try, at most (beyond, the oldest are given up: the node's lists drain as it goes). */
export const MAX_KEPT_ACKS = 10_000;

/**
 * The acks of one executor's processing list (docs/dispatch.md "Node queues"), sent in groups. A failed ack is
 * kept and sent again with the next group or by {@link retry}: a finished id left in the list would count as load
 * for LEAST_ACTIVE and hide a lost push of it from the reconciler. Each ack removes one entry (LREM count 1), so
 * an id is kept once per failed ack; one sent twice (answer lost) at worst removes a later claim's entry early,
 * which only LEAST_ACTIVE's count notices.
 */
export class AckBuffer {
  /** Failed acks, oldest first: id → how many of its entries to remove. */
  private readonly kept = new Map<string, number>();
  private keptEntries = 0;
  private readonly groups: GroupCommitter<string, void>;

  /** `ackMany` removes ids from the processing list (may throw); `warn` is told of each failed ack. */
  constructor(
    private readonly ackMany: (ids: string[]) => Promise<void>,
    private readonly warn: (message: string) => void,
    maxBatch = 500,
  ) {
    this.groups = new GroupCommitter<string, void>(async (ids) => {
      await this.send(ids);
      return ids.map(() => undefined);
    }, maxBatch);
  }

  /** Acks that failed and wait for another try (an id counts once per failed ack). */
  get unacked(): number {
    return this.keptEntries;
  }

  /** Acks `id` with the next group; resolves once tried (never rejects: a failure keeps the id). */
  submit(id: string): Promise<void> {
    return this.groups.submit(id);
  }

  /** Sends the kept ids again (called every heartbeat); nothing when none is kept. */
  async retry(): Promise<void> {
    if (this.kept.size > 0) await this.send([]);
  }

  private async send(ids: string[]): Promise<void> {
    const again = [...this.kept].flatMap(([id, n]) => new Array<string>(n).fill(id));
    try {
      await this.ackMany([...again, ...ids]);
      for (const id of again) this.drop(id);
    } catch (err) {
      for (const id of ids) {
        this.kept.set(id, (this.kept.get(id) ?? 0) + 1);
        this.keptEntries++;
      }
      while (this.keptEntries > MAX_KEPT_ACKS) this.drop(this.kept.keys().next().value as string);
      const n = again.length + ids.length;
      this.warn(`ack of ${n} id(s) failed (${(err as Error).message}); ${this.keptEntries} kept for the next try`);
    }
  }

  private drop(id: string): void {
    const n = this.kept.get(id);
    if (n === undefined) return;
    if (n > 1) this.kept.set(id, n - 1);
    else this.kept.delete(id);
    this.keptEntries--;
  }
}
