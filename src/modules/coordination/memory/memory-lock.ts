import type { Clock } from '../../../common/index.js';
import type { LockAttempt, LockPort } from '../coordination.port.js';
import { toTtl } from '../port-args.js';

interface HeldLock {
  owner: string;
  /** Epoch ms at which the lock is gone. */
  expiresAt: number;
}

/** {@link LockPort} in memory; TTLs are measured with the injected Clock. */
export class MemoryLock implements LockPort {
  private readonly locks = new Map<string, HeldLock>();

  constructor(private readonly clock: Clock) {}

  async tryAcquireLock(name: string, owner: string, ttlMs: number): Promise<LockAttempt> {
    const ttl = toTtl(ttlMs);
    const held = this.heldLock(name);
    if (held && held.owner !== owner) return { held: false, holderTtlMs: held.expiresAt - this.clock.now() };
    this.locks.set(name, { owner, expiresAt: this.clock.now() + ttl });
    return { held: true };
  }

  async renewLock(name: string, owner: string, ttlMs: number): Promise<boolean> {
    const ttl = toTtl(ttlMs);
    const held = this.heldLock(name);
    if (held?.owner !== owner) return false;
    held.expiresAt = this.clock.now() + ttl;
    return true;
  }

  async releaseLock(name: string, owner: string): Promise<boolean> {
    if (this.heldLock(name)?.owner !== owner) return false;
    this.locks.delete(name);
    return true;
  }

  async lockOwner(name: string): Promise<string | null> {
    return this.heldLock(name)?.owner ?? null;
  }

  /** The live holder of `name`; an expired lock is forgotten. */
  private heldLock(name: string): HeldLock | undefined {
    const held = this.locks.get(name);
    if (held && held.expiresAt <= this.clock.now()) {
      this.locks.delete(name);
      return undefined;
    }
    return held;
  }
}
