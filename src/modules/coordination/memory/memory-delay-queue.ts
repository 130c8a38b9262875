import type { DelayQueuePort } from '../coordination.port.js';

interface DelayedEntry {
  id: string;
  dueAt: number;
}

/** {@link DelayQueuePort} in memory, ordered by (due time, id) as a Redis sorted set orders it. */
export class MemoryDelayQueue implements DelayQueuePort {
  private readonly order: DelayedEntry[] = [];
  /** id → due time. */
  private readonly index = new Map<string, number>();

  async scheduleDelayed(id: string, dueAtMs: number): Promise<void> {
    const previous = this.index.get(id);
    if (previous !== undefined) this.order.splice(this.position({ id, dueAt: previous }), 1);
    const entry = { id, dueAt: dueAtMs };
    this.order.splice(this.position(entry), 0, entry);
    this.index.set(id, dueAtMs);
  }

  async takeDue(nowMs: number, limit: number): Promise<string[]> {
    let count = 0;
    while (count < this.order.length && count + 1 <= limit && this.order[count].dueAt <= nowMs) count++;
    const taken = this.order.splice(0, count).map((entry) => entry.id);
    for (const id of taken) this.index.delete(id);
    return taken;
  }

  async delayedDueAt(id: string): Promise<number | null> {
    return this.index.get(id) ?? null;
  }

  /** Index of the first entry not ordered before `entry` (binary search). */
  private position(entry: DelayedEntry): number {
    let low = 0;
    let high = this.order.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const other = this.order[mid];
      const before = other.dueAt < entry.dueAt || (other.dueAt === entry.dueAt && other.id < entry.id);
      if (before) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
