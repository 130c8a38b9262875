import type { NoncePort } from '../../../src/modules/coordination/index.js';
import { BEYOND, fixture, type FixtureFactory, TTL, useContract } from './fixture.js';

/** {@link NoncePort}: replay nonces and token buckets. */
export function describeNonceContract(factory: FixtureFactory): void {
  describe('nonces and token buckets', () => {
    let sut: NoncePort;
    useContract(factory, (port) => (sut = port));

    it('should accept a nonce once per app within its ttl', async () => {
      expect(await sut.acceptNonce('app1', 'n-1', TTL)).toBe(true);
      expect(await sut.acceptNonce('app1', 'n-1', TTL)).toBe(false);
      expect(await sut.acceptNonce('app2', 'n-1', TTL)).toBe(true);
      expect(await sut.acceptNonce('app1:n', '1', TTL)).toBe(true);
      await fixture.elapse(BEYOND);
      expect(await sut.acceptNonce('app1', 'n-1', TTL)).toBe(true);
    });

    it('should reject a ttl that is not positive', async () => {
      await expect(sut.acceptNonce('app', 'x', -5)).rejects.toThrow();
    });

    describe('token buckets', () => {
      it('should start full, give up to burst tokens, then refuse and say how long to wait', async () => {
        for (const left of [2, 1, 0])
          expect(await sut.takeTokens('app-a', 1, 3, 1)).toMatchObject({
            allowed: true,
            remaining: left,
            retryAfterMs: 0,
          });
        const refused = await sut.takeTokens('app-a', 1, 3, 1);
        expect(refused).toMatchObject({ allowed: false, remaining: 0 });
        expect(refused.retryAfterMs).toBeGreaterThan(0);
        expect(refused.retryAfterMs).toBeLessThanOrEqual(1000);
        expect(refused.fullInMs).toBeGreaterThan(2000);
        expect(refused.fullInMs).toBeLessThanOrEqual(3000);
      });

      it('should take n tokens at once, all or none', async () => {
        expect(await sut.takeTokens('app-n', 1, 5, 3)).toMatchObject({ allowed: true, remaining: 2 });
        const refused = await sut.takeTokens('app-n', 1, 5, 3);
        expect(refused).toMatchObject({ allowed: false, remaining: 2 });
        expect(refused.retryAfterMs).toBeGreaterThan(0);
        expect(refused.retryAfterMs).toBeLessThanOrEqual(1000);
        expect(await sut.takeTokens('app-n', 1, 5, 2)).toMatchObject({ allowed: true, remaining: 0 });
      });

      it('should refill at the rate, and let the waiting caller in after retryAfterMs', async () => {
        expect((await sut.takeTokens('app-r', 2, 2, 2)).allowed).toBe(true);
        const refused = await sut.takeTokens('app-r', 2, 2, 1);
        expect(refused.allowed).toBe(false);
        expect(refused.retryAfterMs).toBeLessThanOrEqual(500);
        await fixture.elapse(refused.retryAfterMs + 20);
        expect((await sut.takeTokens('app-r', 2, 2, 1)).allowed).toBe(true);
      });

      it('should never hold more than burst tokens, however long it stood idle', async () => {
        expect((await sut.takeTokens('app-c', 10, 2, 2)).allowed).toBe(true);
        await fixture.elapse(1100); // 11 tokens' worth of refill at 10/s
        expect(await sut.takeTokens('app-c', 10, 2, 1)).toMatchObject({ allowed: true, remaining: 1 });
        const last = await sut.takeTokens('app-c', 10, 2, 1);
        expect(last).toMatchObject({ allowed: true, remaining: 0 });
        expect(last.fullInMs).toBeLessThanOrEqual(200);
      });

      it('should give exactly burst tokens to concurrent takers', async () => {
        const takes = await Promise.all(Array.from({ length: 25 }, () => sut.takeTokens('app-race', 0.001, 10, 1)));
        expect(takes.filter((t) => t.allowed)).toHaveLength(10);
      });

      it('should keep buckets of different keys and namespaces apart', async () => {
        expect((await sut.takeTokens('app-x', 0.001, 1, 1)).allowed).toBe(true);
        expect((await sut.takeTokens('app-x', 0.001, 1, 1)).allowed).toBe(false);
        expect((await sut.takeTokens('app-y', 0.001, 1, 1)).allowed).toBe(true);
        expect((await (await fixture.open('other')).takeTokens('app-x', 0.001, 1, 1)).allowed).toBe(true);
      });

      it('should admit a request in one step: spend its nonce, then take a token for a new nonce only', async () => {
        const bucket = { key: 'app-adm', ratePerSecond: 0.001, burst: 2, n: 1 };
        expect(await sut.admitRequest('app1', 'adm-1', TTL, bucket)).toEqual({
          nonceAccepted: true,
          take: expect.objectContaining({ allowed: true, remaining: 1, retryAfterMs: 0 }),
        });
        expect(await sut.admitRequest('app1', 'adm-1', TTL, bucket)).toEqual({ nonceAccepted: false, take: null });
        expect(await sut.acceptNonce('app1', 'adm-1', TTL)).toBe(false); // one marker for both calls
        expect((await sut.admitRequest('app1', 'adm-2', TTL, bucket)).take).toMatchObject({
          allowed: true,
          remaining: 0,
        });
        const refused = await sut.admitRequest('app1', 'adm-3', TTL, bucket);
        expect(refused).toMatchObject({ nonceAccepted: true, take: { allowed: false, remaining: 0 } });
        expect(refused.take?.retryAfterMs).toBeGreaterThan(0);
        expect(await sut.admitRequest('app1', 'adm-3', TTL, bucket)).toEqual({ nonceAccepted: false, take: null });
        expect(await sut.takeTokens('app-adm', 0.001, 2, 1)).toMatchObject({ allowed: false }); // the same bucket
        expect(await sut.admitRequest('app1', 'adm-4', TTL, null)).toEqual({ nonceAccepted: true, take: null });
        await fixture.elapse(BEYOND);
        expect((await sut.admitRequest('app1', 'adm-1', TTL, null)).nonceAccepted).toBe(true);
      });

      it('should give exactly burst tokens to concurrent admissions, and none to their replays', async () => {
        const bucket = { key: 'app-adm-race', ratePerSecond: 0.001, burst: 10, n: 1 };
        const nonces = Array.from({ length: 25 }, (_, i) => `race-${i % 20}`);
        const all = await Promise.all(nonces.map((n) => sut.admitRequest('app1', n, TTL, bucket)));
        expect(all.filter((a) => a.nonceAccepted)).toHaveLength(20);
        expect(all.filter((a) => a.take?.allowed)).toHaveLength(10);
        expect(all.filter((a) => !a.nonceAccepted).every((a) => a.take === null)).toBe(true);
      });

      it('should refuse an admission whose ttl or bucket cannot work, spending no nonce', async () => {
        await expect(sut.admitRequest('app1', 'bad-1', -5, null)).rejects.toThrow();
        const bad = { key: 'app-bad', ratePerSecond: 1, burst: 2, n: 3 };
        await expect(sut.admitRequest('app1', 'bad-1', TTL, bad)).rejects.toMatchObject({ field: 'n' });
        expect(await sut.acceptNonce('app1', 'bad-1', TTL)).toBe(true);
      });

      it('should refuse a rate, burst or n that cannot work', async () => {
        for (const [rate, burst, n, field] of [
          [0, 1, 1, 'ratePerSecond'],
          [-1, 1, 1, 'ratePerSecond'],
          [Number.NaN, 1, 1, 'ratePerSecond'],
          [Infinity, 1, 1, 'ratePerSecond'],
          [1, 0, 1, 'burst'],
          [1, 1.5, 1, 'burst'],
          [1, 2, 0, 'n'],
          [1, 2, 3, 'n'],
          [1, 2, 1.5, 'n'],
        ] as const) {
          await expect(sut.takeTokens('app-bad', rate, burst, n)).rejects.toMatchObject({ code: 'VALIDATION', field });
        }
      });
    });
  });
}
