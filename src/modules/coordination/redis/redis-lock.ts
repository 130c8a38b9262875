import type { LockAttempt, LockPort } from '../coordination.port.js';
import { toTtl } from '../port-args.js';
import { RedisPart } from './redis-part.js';

/** {@link LockPort} on Redis: a PX-expiring string key per lock, owner-checked in Lua. */
export class RedisLock extends RedisPart implements LockPort {
  async tryAcquireLock(name: string, owner: string, ttlMs: number): Promise<LockAttempt> {
    const [held, holderTtlMs] = (await this.run('acquireLock', [this.keys.lock(name)], [owner, toTtl(ttlMs)])) as [
      number,
      number?,
    ];
    return held === 1 ? { held: true } : { held: false, holderTtlMs: Number(holderTtlMs) };
  }

  async renewLock(name: string, owner: string, ttlMs: number): Promise<boolean> {
    return (await this.run('renewLock', [this.keys.lock(name)], [owner, toTtl(ttlMs)])) === 1;
  }

  async releaseLock(name: string, owner: string): Promise<boolean> {
    return (await this.run('releaseLock', [this.keys.lock(name)], [owner])) === 1;
  }

  lockOwner(name: string): Promise<string | null> {
    return this.redis.get(this.keys.lock(name));
  }
}
