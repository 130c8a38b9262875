import type { LockPort } from '../../../src/modules/coordination/index.js';
import { BEYOND, fixture, type FixtureFactory, TTL, useContract, WITHIN } from './fixture.js';

/** {@link LockPort}. */
export function describeLockContract(factory: FixtureFactory): void {
  describe('locks', () => {
    let sut: LockPort;
    useContract(factory, (port) => (sut = port));

    it('should grant a free lock and report its owner', async () => {
      expect(await sut.lockOwner('leader')).toBeNull();
      expect(await sut.tryAcquireLock('leader', 'n1', TTL)).toEqual({ held: true });
      expect(await sut.lockOwner('leader')).toBe('n1');
    });

    it("should refuse the lock when another owner holds it, telling how long the holder's lock has left", async () => {
      await sut.tryAcquireLock('leader', 'n1', TTL);
      const first = await sut.tryAcquireLock('leader', 'n2', TTL);
      expect(first).toEqual({ held: false, holderTtlMs: expect.any(Number) });
      const left = (first as { holderTtlMs: number }).holderTtlMs;
      expect(left).toBeGreaterThan(0);
      expect(left).toBeLessThanOrEqual(TTL);
      expect(await sut.lockOwner('leader')).toBe('n1');
      await fixture.elapse(WITHIN); // time passes: less is left, and trying again right after that much takes it
      const later = (await sut.tryAcquireLock('leader', 'n2', TTL)) as { held: false; holderTtlMs: number };
      expect(later.held).toBe(false);
      expect(later.holderTtlMs).toBeLessThanOrEqual(TTL - WITHIN + 5);
      await fixture.elapse(later.holderTtlMs + 2);
      expect(await sut.tryAcquireLock('leader', 'n2', TTL)).toEqual({ held: true });
    });

    it('should reset the ttl when the owner acquires again', async () => {
      await sut.tryAcquireLock('leader', 'n1', TTL);
      await fixture.elapse(WITHIN);
      expect(await sut.tryAcquireLock('leader', 'n1', TTL)).toEqual({ held: true });
      await fixture.elapse(WITHIN);
      expect(await sut.lockOwner('leader')).toBe('n1');
    });

    it('should extend the lock when its owner renews it', async () => {
      await sut.tryAcquireLock('leader', 'n1', TTL);
      await fixture.elapse(WITHIN);
      expect(await sut.renewLock('leader', 'n1', TTL)).toBe(true);
      await fixture.elapse(WITHIN);
      expect(await sut.lockOwner('leader')).toBe('n1');
    });

    it('should refuse renewal by a wrong owner or after expiry', async () => {
      await sut.tryAcquireLock('leader', 'n1', TTL);
      expect(await sut.renewLock('leader', 'n2', TTL)).toBe(false);
      await fixture.elapse(BEYOND);
      expect(await sut.renewLock('leader', 'n1', TTL)).toBe(false);
      expect(await sut.lockOwner('leader')).toBeNull();
    });

    it('should free the lock when it expires', async () => {
      await sut.tryAcquireLock('leader', 'n1', TTL);
      await fixture.elapse(BEYOND);
      expect(await sut.lockOwner('leader')).toBeNull();
      expect(await sut.tryAcquireLock('leader', 'n2', TTL)).toEqual({ held: true });
    });

    it('should release only for the owner', async () => {
      await sut.tryAcquireLock('leader', 'n1', TTL);
      expect(await sut.releaseLock('leader', 'n2')).toBe(false);
      expect(await sut.lockOwner('leader')).toBe('n1');
      expect(await sut.releaseLock('leader', 'n1')).toBe(true);
      expect(await sut.lockOwner('leader')).toBeNull();
      expect(await sut.releaseLock('leader', 'n1')).toBe(false);
    });

    it('should reject a ttl that is not positive', async () => {
      await expect(sut.tryAcquireLock('leader', 'n1', 0)).rejects.toThrow();
    });
  });
}
