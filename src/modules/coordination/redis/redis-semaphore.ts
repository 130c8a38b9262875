import type { SemaphorePort } from '../coordination.port.js';
import { checkSlotArgs, toTtl } from '../port-args.js';
import { RedisPart } from './redis-part.js';

/** {@link SemaphorePort} on Redis: a sorted set per semaphore (score = expiry) with a `~known` mark. */
export class RedisSemaphore extends RedisPart implements SemaphorePort {
  async acquireSlots(
    name: string,
    holders: string[],
    limit: number,
    ttlMs: number,
    nowMs: number,
  ): Promise<string[] | null> {
    checkSlotArgs(holders, limit);
    if (holders.length === 0) return [];
    const args = [nowMs, nowMs + toTtl(ttlMs), limit, ...holders];
    return (await this.run('acquireSlots', [this.keys.semaphore(name)], args)) as string[] | null;
  }

  async seedSlots(name: string, holders: string[], ttlMs: number, nowMs: number): Promise<void> {
    checkSlotArgs(holders, 1);
    await this.run('seedSlots', [this.keys.semaphore(name)], [nowMs, nowMs + toTtl(ttlMs), ...holders]);
  }

  async releaseSlot(name: string, holder: string): Promise<void> {
    await this.redis.zrem(this.keys.semaphore(name), holder);
  }
}
