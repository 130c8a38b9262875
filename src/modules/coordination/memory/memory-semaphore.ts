import type { SemaphorePort } from '../coordination.port.js';
import { checkSlotArgs, toTtl } from '../port-args.js';

/** A semaphore known from a seed: holder → expiry (epoch ms), and until when the semaphore itself lives. */
interface Semaphore {
  held: Map<string, number>;
  until: number;
}

/** {@link SemaphorePort} in memory; expiry is judged by the caller's `nowMs`, as in Redis. */
export class MemorySemaphore implements SemaphorePort {
  private readonly semaphores = new Map<string, Semaphore>();

  async acquireSlots(
    name: string,
    holders: string[],
    limit: number,
    ttlMs: number,
    nowMs: number,
  ): Promise<string[] | null> {
    checkSlotArgs(holders, limit);
    if (holders.length === 0) return [];
    const sem = this.known(name, nowMs);
    if (!sem) return null;
    const admitted = holders.filter((h) => {
      if (!sem.held.has(h) && sem.held.size >= limit) return false;
      sem.held.set(h, nowMs + toTtl(ttlMs));
      return true;
    });
    sem.until = Math.max(sem.until, nowMs + toTtl(ttlMs));
    return admitted;
  }

  async seedSlots(name: string, holders: string[], ttlMs: number, nowMs: number): Promise<void> {
    checkSlotArgs(holders, 1);
    const expireAt = nowMs + toTtl(ttlMs);
    const sem = this.known(name, nowMs) ?? { held: new Map<string, number>(), until: 0 };
    for (const h of holders) sem.held.set(h, Math.max(sem.held.get(h) ?? 0, expireAt));
    sem.until = Math.max(sem.until, expireAt);
    this.semaphores.set(name, sem);
  }

  async releaseSlot(name: string, holder: string): Promise<void> {
    this.semaphores.get(name)?.held.delete(holder);
  }

  /**
   * Semaphore `name` with its expired holders dropped, or null when it is not known (never seeded, or past
   * its `until`, as the Redis key expires: every call sets it to at least its holders' expiry and now + ttl).
   */
  private known(name: string, nowMs: number): Semaphore | null {
    const sem = this.semaphores.get(name);
    if (!sem) return null;
    for (const [holder, expiry] of sem.held) if (expiry <= nowMs) sem.held.delete(holder);
    if (sem.until <= nowMs) {
      this.semaphores.delete(name);
      return null;
    }
    return sem;
  }
}
