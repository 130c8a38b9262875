import { GroupCommitter } from '../../common/index.js';

/** Failed acks kept for another try, at most (beyond, the oldest are given up: the lists are drained when the node goes). */
export const MAX_KEPT_ACKS = 10_000;

/**
 * The acks of one executor's processing list (DESIGN §6 reliable queue). Ids whose run ended leave the
 * list in groups (one flush at a time, what ends meanwhile goes in the next). An ack that fails (Redis
 * unreachable for a moment) is kept and sent again with the next group, or by {@link retry} at the next
 * heartbeat: a finished id left in the processing list would count as load for LEAST_ACTIVE and hide a
 * lost push of the same id from the reconciler. Each ack removes one entry (LREM count 1), and an id is
 * kept once per failed ack: claimed again here before its kept ack went out, it has two entries. An ack
 * that did go through but was reported failed (its answer lost) is sent again and removes nothing, or
 * the entry of a later claim of the same id early, which only LEAST_ACTIVE's count notices (MySQL decides
 * who runs it).
 */
export class AckBuffer {
  /**
   * Failed acks, oldest first: id → how many entries of it to remove. An id routed here again and claimed
   * before its kept ack went out is in the processing list twice, and one LREM removes one entry.
   */
  private readonly kept = new Map<string, number>();
  /** Entries in {@link kept}. */
  private keptEntries = 0;
  private readonly groups: GroupCommitter<string, void>;

  /**
   * @param ackMany removes the ids from this node's processing list (one round trip); may throw.
   * @param warn told of each failed attempt (message names the count).
   * @param maxBatch most new ids per ack.
   */
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

  /** Acks `id` with the next group; resolves once that was tried (never rejects: a failure keeps the id). */
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
      this.warn(`ack of ${again.length + ids.length} id(s) failed (${(err as Error).message}); ${this.keptEntries} kept for the next try`);
    }
  }

  /** Forgets one kept entry of `id` (none when another send already did). */
  private drop(id: string): void {
    const n = this.kept.get(id);
    if (n === undefined) return;
    if (n > 1) this.kept.set(id, n - 1);
    else this.kept.delete(id);
    this.keptEntries--;
  }
}
