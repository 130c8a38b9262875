import type { SemaphorePort } from '../../../src/modules/coordination/index.js';
import { BEYOND, fixture, type FixtureFactory, TTL, useContract, WITHIN } from './fixture.js';

/** {@link SemaphorePort}. */
export function describeSemaphoreContract(factory: FixtureFactory): void {
  describe('semaphores', () => {
    let sut: SemaphorePort;
    useContract(factory, (port) => (sut = port));

    /** Marks `name` known and empty, for a minute (as dispatch does after reading no holder from MySQL). */
    const known = (name: string) => sut.seedSlots(name, [], 60_000, Date.now());

    it('should admit holders in order up to the limit and refuse the rest', async () => {
      await known('job:a');
      expect(await sut.acquireSlots('job:a', ['h1', 'h2', 'h3'], 2, 60_000, Date.now())).toEqual(['h1', 'h2']);
      expect(await sut.acquireSlots('job:a', ['h4'], 2, 60_000, Date.now())).toEqual([]);
    });

    it('should count a holder that already holds a slot as admitted, once', async () => {
      await known('job:a');
      await sut.acquireSlots('job:a', ['h1'], 2, 60_000, Date.now());
      expect(await sut.acquireSlots('job:a', ['h1', 'h2', 'h3'], 2, 60_000, Date.now())).toEqual(['h1', 'h2']);
    });

    it('should free a slot on release and admit the next holder', async () => {
      await known('job:a');
      await sut.acquireSlots('job:a', ['h1', 'h2'], 2, 60_000, Date.now());
      await sut.releaseSlot('job:a', 'h1');
      await sut.releaseSlot('job:a', 'unknown');
      expect(await sut.acquireSlots('job:a', ['h3', 'h4'], 2, 60_000, Date.now())).toEqual(['h3']);
    });

    it("should drop holders whose ttl passed (by the caller's clock)", async () => {
      const t0 = Date.now();
      await known('job:a');
      await sut.acquireSlots('job:a', ['h1'], 1, TTL, t0);
      expect(await sut.acquireSlots('job:a', ['h2'], 1, TTL, t0 + WITHIN)).toEqual([]);
      expect(await sut.acquireSlots('job:a', ['h2'], 1, TTL, t0 + BEYOND)).toEqual(['h2']);
    });

    it('should admit nobody to a semaphore never seeded (null: rebuild it from the source of truth first)', async () => {
      expect(await sut.acquireSlots('job:a', ['h1'], 5, 60_000, Date.now())).toBeNull();
      await sut.releaseSlot('job:a', 'h1'); // a release does not make it known either
      expect(await sut.acquireSlots('job:a', ['h1'], 5, 60_000, Date.now())).toBeNull();
      await known('job:a');
      expect(await sut.acquireSlots('job:a', ['h1'], 5, 60_000, Date.now())).toEqual(['h1']);
      expect(await sut.acquireSlots('job:b', ['h1'], 5, 60_000, Date.now())).toBeNull(); // per name
    });

    it('should seed its holders whatever the limit: new holders wait until enough of them are released', async () => {
      await sut.seedSlots('job:a', ['r1', 'r2', 'r3'], 60_000, Date.now()); // three run, the limit is 2
      expect(await sut.acquireSlots('job:a', ['n1'], 2, 60_000, Date.now())).toEqual([]);
      expect(await sut.acquireSlots('job:a', ['r2', 'n1'], 2, 60_000, Date.now())).toEqual(['r2']); // a seeded holder holds
      await sut.releaseSlot('job:a', 'r1');
      expect(await sut.acquireSlots('job:a', ['n1'], 2, 60_000, Date.now())).toEqual([]);
      await sut.releaseSlot('job:a', 'r3');
      expect(await sut.acquireSlots('job:a', ['n1', 'n2'], 2, 60_000, Date.now())).toEqual(['n1']);
    });

    it("should keep the holders a seed does not name, and never shorten one's expiry", async () => {
      const t0 = Date.now();
      await known('job:a');
      await sut.acquireSlots('job:a', ['h1'], 3, 60_000, t0);
      await sut.seedSlots('job:a', ['h1', 'h2'], TTL, t0); // h1 keeps its minute; h2 holds for TTL
      expect(await sut.acquireSlots('job:a', ['n1', 'n2'], 3, 60_000, t0 + BEYOND)).toEqual(['n1', 'n2']); // h2 expired
      expect(await sut.acquireSlots('job:a', ['n3'], 3, 60_000, t0 + BEYOND)).toEqual([]); // h1, n1, n2 hold
    });

    it('should forget a semaphore that outlived its holders and its seed (it must be rebuilt again)', async () => {
      const t0 = Date.now();
      await sut.seedSlots('job:a', ['h1'], TTL, t0);
      expect(await sut.acquireSlots('job:a', ['h2'], 2, TTL, t0)).toEqual(['h2']);
      await fixture.elapse(BEYOND);
      expect(await sut.acquireSlots('job:a', ['h3'], 2, 60_000, t0 + BEYOND)).toBeNull();
    });

    it("should refuse a holder name starting with ~ (reserved for the semaphore's own mark)", async () => {
      await known('job:a');
      await expect(sut.acquireSlots('job:a', ['~known'], 2, 60_000, Date.now())).rejects.toThrow(/reserved/);
      await expect(sut.seedSlots('job:a', ['~x'], 60_000, Date.now())).rejects.toThrow(/reserved/);
    });

    it('should keep semaphores of different names apart and refuse a limit below 1', async () => {
      await known('job:a');
      await known('job:b');
      await sut.acquireSlots('job:a', ['h1'], 1, 60_000, Date.now());
      expect(await sut.acquireSlots('job:b', ['h1'], 1, 60_000, Date.now())).toEqual(['h1']);
      await expect(sut.acquireSlots('job:c', ['h1'], 0, 60_000, Date.now())).rejects.toThrow(/limit/);
    });
  });
}
