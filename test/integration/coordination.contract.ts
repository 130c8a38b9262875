import type {
  ClaimedItem,
  CoordinationPort,
  CounterPort,
  DelayQueuePort,
  LockPort,
  NodeAdvert,
  NodeQueuePort,
  NodeRegistryPort,
  NoncePort,
  ReadyItem,
  SemaphorePort,
  SignalPort,
} from '../../src/modules/coordination/index.js';
import { sleep } from '../utils/async.js';

/** What a contract run needs from one adapter kind; one fixture per test. */
export interface CoordinationFixture {
  /** An adapter scoped to namespace `name`, made unique to this test by the fixture. Same name, same store. */
  open(name?: string): Promise<CoordinationPort>;
  /** Lets `ms` pass for lock and nonce TTLs (a fake clock advances; a real store sleeps). */
  elapse(ms: number): Promise<void>;
  /** Closes what `open` made and deletes its data. */
  dispose(): Promise<void>;
  /**
   * The TTL of the expiry tests and the waits that stay inside it / pass beyond it; {@link FAKE_TIMING} when
   * unset. A store that really sleeps needs room inside the TTL for a loaded machine's scheduling delays.
   */
  timing?: ExpiryTiming;
}

/** TTL used by expiry tests, and waits that stay inside it / pass beyond it. */
export interface ExpiryTiming {
  ttl: number;
  within: number;
  beyond: number;
}

/** For a clock that moves only when told to: any values do. */
export const FAKE_TIMING: ExpiryTiming = { ttl: 200, within: 120, beyond: 300 };

/** Ready items of one app (the queue cases below that are not about fairness use a single app). */
function queued(...ids: string[]): ReadyItem[] {
  return ids.map((id) => ({ id, appId: 'app-1' }));
}

/** Ready items of app `appId`. */
function of(appId: string, ...ids: string[]): ReadyItem[] {
  return ids.map((id) => ({ id, appId }));
}

/** The ids of claimed items, in order. */
function ids(items: ClaimedItem[]): string[] {
  return items.map((item) => item.id);
}

function advert(overrides: Partial<NodeAdvert> = {}): NodeAdvert {
  return {
    handlers: ['demo'],
    capacity: 4,
    active: 0,
    labels: { zone: 'a' },
    host: 'box-1',
    startedAt: 1_700_000_000_000,
    ...overrides,
  };
}

/** Makes the fixture of one test. */
export type FixtureFactory = () => CoordinationFixture | Promise<CoordinationFixture>;

// The running test's fixture and expiry timing (jest runs one test of a file at a time).
let fixture: CoordinationFixture;
let TTL = FAKE_TIMING.ttl;
let WITHIN = FAKE_TIMING.within;
let BEYOND = FAKE_TIMING.beyond;

/** Opens a fixture and an adapter before each test of the calling describe (`use` keeps the adapter). */
function useContract(factory: FixtureFactory, use: (port: CoordinationPort) => void): void {
  beforeEach(async () => {
    fixture = await factory();
    ({ ttl: TTL, within: WITHIN, beyond: BEYOND } = fixture.timing ?? FAKE_TIMING);
    use(await fixture.open());
  });

  afterEach(async () => {
    await fixture.dispose();
  });
}

/**
 * The {@link CoordinationPort} contract (docs/architecture.md: every adapter runs it, one
 * describe per concern, each seeing the adapter only through that concern's port, so the standalone and
 * cluster shapes behave the same.
 */
export function describeCoordinationContract(name: string, factory: FixtureFactory): void {
  describe(name, () => {
    describeLockContract(factory);
    describeNodeQueueContract(factory);
    describeDelayQueueContract(factory);
    describeNodeRegistryContract(factory);
    describeSemaphoreContract(factory);
    describeNonceContract(factory);
    describeCounterContract(factory);
    describeSignalContract(factory);
    describeLifecycleContract(factory);
  });
}

/** {@link LockPort}. */
export function describeLockContract(factory: FixtureFactory): void {
  describe('locks', () => {
    let sut: LockPort;
    useContract(factory, (port) => (sut = port));

    it('should grant a free lock and report its owner', async () => {
      expect(await sut.lockOwner('leader')).toBeNull();
      expect(await sut.tryAcquireLock('leader', 'n1', TTL)).toBe(true);
      expect(await sut.lockOwner('leader')).toBe('n1');
    });

    it('should refuse the lock when another owner holds it', async () => {
      await sut.tryAcquireLock('leader', 'n1', TTL);
      expect(await sut.tryAcquireLock('leader', 'n2', TTL)).toBe(false);
      expect(await sut.lockOwner('leader')).toBe('n1');
    });

    it('should reset the ttl when the owner acquires again', async () => {
      await sut.tryAcquireLock('leader', 'n1', TTL);
      await fixture.elapse(WITHIN);
      expect(await sut.tryAcquireLock('leader', 'n1', TTL)).toBe(true);
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
      expect(await sut.tryAcquireLock('leader', 'n2', TTL)).toBe(true);
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

/** {@link NodeQueuePort}, fair sharing across apps included. */
export function describeNodeQueueContract(factory: FixtureFactory): void {
  describe('node queues', () => {
    let sut: NodeQueuePort & Pick<CoordinationPort, 'close'>;
    useContract(factory, (port) => (sut = port));

    it('should claim in FIFO order and keep claimed ids in processing', async () => {
      await sut.pushReady('n1', queued('a', 'b'));
      await sut.pushReady('n1', queued('c'));
      await sut.pushReady('n1', queued());
      expect([await sut.claim('n1', 0), await sut.claim('n1', 100), await sut.claim('n1', 0)]).toEqual(['a', 'b', 'c']);
      expect(await sut.queueDepth('n1')).toEqual({ ready: 0, processing: 3 });
    });

    it('should return null at once when the queue is empty and timeout is 0', async () => {
      const started = Date.now();
      expect(await sut.claim('n1', 0)).toBeNull();
      expect(Date.now() - started).toBeLessThan(1000); // no wait (a blocking pop of even 1 s fails this)
    });

    it('should return null when nothing arrives within the timeout', async () => {
      const started = Date.now();
      expect(await sut.claim('n1', 150)).toBeNull();
      expect(Date.now() - started).toBeGreaterThanOrEqual(100);
      expect(Date.now() - started).toBeLessThan(2000);
    });

    it('should wake a waiting claim when an id is pushed later', async () => {
      const started = Date.now();
      const claimed = sut.claim('n1', 5000);
      await sleep(50);
      await sut.pushReady('n1', queued('late'));
      expect(await claimed).toBe('late');
      expect(Date.now() - started).toBeLessThan(4000); // woken by the push, not at the 5-s timeout
      expect(await sut.queueDepth('n1')).toEqual({ ready: 0, processing: 1 });
    });

    it('should give each of several waiting claimers a distinct id', async () => {
      const claims = [sut.claim('n1', 5000), sut.claim('n1', 5000), sut.claim('n1', 5000)];
      await sleep(50);
      await sut.pushReady('n1', queued('a', 'b', 'c'));
      expect((await Promise.all(claims)).sort()).toEqual(['a', 'b', 'c']);
    });

    it('should not hold up a claim on one node while another node waits', async () => {
      const waitingOnA = sut.claim('nA', 5000);
      await sleep(20);
      await sut.pushReady('nB', queued('b1'));
      const started = Date.now();
      expect(await sut.claim('nB', 5000)).toBe('b1');
      expect(Date.now() - started).toBeLessThan(3000); // not behind nA's claim, which would end at its 5-s timeout
      await sut.pushReady('nA', queued('a1'));
      expect(await waitingOnA).toBe('a1');
    });

    it('should resolve pending claims with null on close', async () => {
      const pending = sut.claim('n1', 10_000);
      await sleep(50);
      await sut.close();
      expect(await pending).toBeNull();
    });

    it('should remove an acked id from processing', async () => {
      await sut.pushReady('n1', queued('a', 'b'));
      await sut.claim('n1', 0);
      await sut.claim('n1', 0);
      await sut.ack('n1', 'a');
      await sut.ack('n1', 'unknown');
      expect(await sut.queueDepth('n1')).toEqual({ ready: 0, processing: 1 });
      expect((await sut.queuedIds('n1')).has('a')).toBe(false);
      expect((await sut.queuedIds('n1')).has('b')).toBe(true);
    });

    it('should drain processing first, then ready, and leave the node empty', async () => {
      await sut.pushReady('n1', queued('a', 'b', 'c', 'd'));
      await sut.claim('n1', 0);
      await sut.claim('n1', 0);
      expect(await sut.drainNode('n1')).toEqual(['a', 'b', 'c', 'd']);
      expect(await sut.queueDepth('n1')).toEqual({ ready: 0, processing: 0 });
      expect(await sut.drainNode('n1')).toEqual([]);
      expect(await sut.claim('n1', 0)).toBeNull();
    });

    it('should claim many at once, oldest first, up to max, into processing', async () => {
      await sut.pushReady('n1', queued('a', 'b', 'c', 'd', 'e'));
      expect(ids(await sut.claimMany('n1', 3, 0))).toEqual(['a', 'b', 'c']);
      expect(ids(await sut.claimMany('n1', 10, 100))).toEqual(['d', 'e']);
      expect(ids(await sut.claimMany('n1', 10, 0))).toEqual([]);
      expect(ids(await sut.claimMany('n1', 0, 0))).toEqual([]);
      expect(await sut.queueDepth('n1')).toEqual({ ready: 0, processing: 5 });
      expect([...(await sut.queuedIds('n1'))].sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    });

    it('should make claimMany wait for the first id and then take what else arrived', async () => {
      const started = Date.now();
      expect(ids(await sut.claimMany('n1', 4, 150))).toEqual([]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(100);
      const claimed = sut.claimMany('n1', 4, 5000).then(ids);
      await new Promise((r) => setTimeout(r, 50));
      await sut.pushReady('n1', queued('x', 'y'));
      const got = await claimed;
      expect(got[0]).toBe('x');
      expect(got.length).toBeGreaterThanOrEqual(1);
      // whatever claimMany did not take is still ready, nothing is lost or doubled
      const rest = ids(await sut.claimMany('n1', 4, 0));
      expect([...got, ...rest]).toEqual(['x', 'y']);
    });

    it('should ack many ids in one call and keep the others', async () => {
      await sut.pushReady('n1', queued('a', 'b', 'c'));
      await sut.claimMany('n1', 3, 0);
      await sut.ackMany('n1', ['a', 'c', 'unknown']);
      await sut.ackMany('n1', []);
      expect(await sut.queueDepth('n1')).toEqual({ ready: 0, processing: 1 });
      expect([...(await sut.queuedIds('n1'))]).toEqual(['b']);
      expect((await sut.queuedIds('n2')).size).toBe(0);
    });

    it('should report depth and membership per node', async () => {
      await sut.pushReady('n1', queued('a', 'b'));
      await sut.claim('n1', 0);
      expect(await sut.queueDepth('n1')).toEqual({ ready: 1, processing: 1 });
      expect(await sut.queueDepth('n2')).toEqual({ ready: 0, processing: 0 });
      expect(await sut.queueDepths(['n2', 'n1'])).toEqual([
        { ready: 0, processing: 0 },
        { ready: 1, processing: 1 },
      ]);
      expect(await sut.queueDepths([])).toEqual([]);
      expect((await sut.queuedIds('n1')).has('a')).toBe(true);
      expect((await sut.queuedIds('n1')).has('b')).toBe(true);
      expect((await sut.queuedIds('n1')).has('z')).toBe(false);
      expect((await sut.queuedIds('n2')).has('a')).toBe(false);
    });

    describe('fair sharing across apps', () => {
      const share = (cap: number, held: Record<string, number> = {}, freed?: AbortSignal) => ({
        cap,
        held: new Map(Object.entries(held)),
        freed,
      });

      it("should take ids round robin across apps, oldest first within each, and tell each id's app", async () => {
        await sut.pushReady('n1', of('A', 'a1', 'a2', 'a3'));
        await sut.pushReady('n1', [...of('B', 'b1'), ...of('C', 'c1'), ...of('A', 'a4'), ...of('C', 'c2')]);
        const got = await sut.claimMany('n1', 10, 0);
        expect(got).toEqual([
          { id: 'a1', appId: 'A' },
          { id: 'b1', appId: 'B' },
          { id: 'c1', appId: 'C' },
          { id: 'a2', appId: 'A' },
          { id: 'c2', appId: 'C' },
          { id: 'a3', appId: 'A' },
          { id: 'a4', appId: 'A' },
        ]);
        expect(await sut.queueDepth('n1')).toEqual({ ready: 0, processing: 7 });
      });

      it('should go on with the rotation where the last claim left it, and serve a new app within one round', async () => {
        await sut.pushReady('n1', [...of('A', 'a1', 'a2', 'a3', 'a4'), ...of('B', 'b1', 'b2')]);
        expect(ids(await sut.claimMany('n1', 1, 0))).toEqual(['a1']);
        expect(ids(await sut.claimMany('n1', 1, 0))).toEqual(['b1']);
        expect(ids(await sut.claimMany('n1', 1, 0))).toEqual(['a2']);
        await sut.pushReady('n1', of('C', 'c1'));
        expect(ids(await sut.claimMany('n1', 3, 0))).toEqual(['b2', 'a3', 'c1']);
        expect(ids(await sut.claimMany('n1', 3, 0))).toEqual(['a4']);
      });

      it('should pass over an app that holds its cap, counting what the claim itself takes', async () => {
        await sut.pushReady('n1', [...of('A', 'a1', 'a2', 'a3', 'a4'), ...of('B', 'b1')]);
        expect(await sut.claimMany('n1', 10, 0, share(2, { A: 1, other: 5 }))).toEqual([
          { id: 'a1', appId: 'A' },
          { id: 'b1', appId: 'B' },
        ]);
        expect(await sut.claimMany('n1', 10, 0, share(2, { A: 2 }))).toEqual([]);
        expect(ids(await sut.claimMany('n1', 10, 0, share(2, { A: 0 })))).toEqual(['a2', 'a3']);
        expect(await sut.queueDepth('n1')).toEqual({ ready: 1, processing: 4 });
        expect(ids(await sut.claimMany('n1', 10, 0))).toEqual(['a4']);
        await expect(sut.claimMany('n1', 1, 0, share(0))).rejects.toThrow(/cap/);
      });

      it('should keep apps apart whatever their ids hold (separators, escapes, case)', async () => {
        const apps = ['a:b', 'a%3Ab', 'A:B', 'x y/ü', 'tickwheel'];
        await sut.pushReady(
          'n1',
          apps.map((appId, i) => ({ id: `id-${i}`, appId })),
        );
        const got = await sut.claimMany('n1', 10, 0, share(1));
        expect(got).toEqual(apps.map((appId, i) => ({ id: `id-${i}`, appId })));
      });

      it('should refuse an item without an app id and queue nothing of that push', async () => {
        await expect(sut.pushReady('n1', [...of('A', 'a1'), { id: 'x', appId: '' }])).rejects.toThrow(/app/);
        expect(await sut.queueDepth('n1')).toEqual({ ready: 0, processing: 0 });
      });

      it("should count, list and drain every app's ids of a node", async () => {
        await sut.pushReady('n1', [...of('A', 'a1', 'a2'), ...of('B', 'b1')]);
        await sut.pushReady('n2', of('A', 'z1'));
        expect(ids(await sut.claimMany('n1', 1, 0))).toEqual(['a1']);
        expect(await sut.queueDepth('n1')).toEqual({ ready: 2, processing: 1 });
        expect(await sut.queueDepths(['n1', 'n2'])).toEqual([
          { ready: 2, processing: 1 },
          { ready: 1, processing: 0 },
        ]);
        expect([...(await sut.queuedIds('n1'))].sort()).toEqual(['a1', 'a2', 'b1']);
        expect(await sut.drainNode('n1')).toEqual(['a1', 'b1', 'a2']);
        expect(await sut.queueDepth('n1')).toEqual({ ready: 0, processing: 0 });
        expect(await sut.claimMany('n1', 5, 0)).toEqual([]);
        await sut.pushReady('n1', of('B', 'b2'));
        expect(ids(await sut.claimMany('n1', 5, 0))).toEqual(['b2']);
        expect([...(await sut.queuedIds('n2'))]).toEqual(['z1']);
      });

      it("should wake a claim that waits on its cap when another app's id is pushed", async () => {
        await sut.pushReady('n1', of('A', 'a1', 'a2'));
        const started = Date.now();
        const claimed = sut.claimMany('n1', 4, 5000, share(1, { A: 1 }));
        await sleep(50);
        await sut.pushReady('n1', of('B', 'b1'));
        expect(await claimed).toEqual([{ id: 'b1', appId: 'B' }]);
        expect(Date.now() - started).toBeLessThan(4000); // woken by the push, not at the 5-s timeout
      });

      it('should end a claim waiting on its cap when `freed` aborts, without another try, and serve the next wait', async () => {
        await sut.pushReady('n1', of('A', 'a1'));
        const freed = new AbortController();
        const started = Date.now();
        const held = new Map([['A', 1]]);
        const first = sut.claimMany('n1', 4, 5000, { cap: 1, held, freed: freed.signal });
        await sleep(50);
        held.set('A', 0); // the slot A had came back: the caller claims again, with all the slots it has free then
        freed.abort();
        expect(await first).toEqual([]);
        expect(await sut.queueDepth('n1')).toEqual({ ready: 1, processing: 0 });
        const second = sut.claimMany('n1', 4, 5000, share(1, { A: 1 }, new AbortController().signal));
        await sleep(50);
        await sut.pushReady('n1', of('B', 'b1'));
        expect(ids(await second)).toEqual(['b1']); // the first claim's abandoned wait did not swallow the wake-up
        expect(Date.now() - started).toBeLessThan(4000);
      });

      it('should keep waiting for a push when nothing is queued, even with `freed` aborted', async () => {
        const freed = new AbortController();
        freed.abort();
        const claimed = sut.claimMany('n1', 4, 5000, share(1, {}, freed.signal));
        await sleep(50);
        await sut.pushReady('n1', of('A', 'a1'));
        expect(ids(await claimed)).toEqual(['a1']);
      });
    });
  });
}

/** {@link DelayQueuePort}. */
export function describeDelayQueueContract(factory: FixtureFactory): void {
  describe('delay queue', () => {
    let sut: DelayQueuePort;
    useContract(factory, (port) => (sut = port));

    it('should take due ids earliest first, inclusive of now, and leave the rest', async () => {
      await sut.scheduleDelayed('c', 300);
      await sut.scheduleDelayed('a', 100);
      await sut.scheduleDelayed('b', 200);
      await sut.scheduleDelayed('d', 1000);
      expect(await sut.takeDue(99, 10)).toEqual([]);
      expect(await sut.takeDue(300, 10)).toEqual(['a', 'b', 'c']);
      expect(await sut.delayedDueAt('a')).toBeNull();
      expect(await sut.delayedDueAt('d')).toBe(1000);
    });

    it('should take at most limit ids per call', async () => {
      for (const [i, id] of ['e1', 'e2', 'e3', 'e4', 'e5'].entries()) await sut.scheduleDelayed(id, 100 + i);
      expect(await sut.takeDue(500, 2)).toEqual(['e1', 'e2']);
      expect(await sut.takeDue(500, 2)).toEqual(['e3', 'e4']);
      expect(await sut.takeDue(500, 0)).toEqual([]);
      expect(await sut.takeDue(500, 2)).toEqual(['e5']);
    });

    it('should move an id when it is scheduled again', async () => {
      await sut.scheduleDelayed('a', 100);
      await sut.scheduleDelayed('a', 500);
      expect(await sut.delayedDueAt('a')).toBe(500);
      expect(await sut.takeDue(200, 10)).toEqual([]);
      expect(await sut.takeDue(500, 10)).toEqual(['a']);
    });

    it('should never hand the same id to two concurrent takers', async () => {
      const ids = Array.from({ length: 60 }, (_, i) => `job-${String(i).padStart(2, '0')}`);
      await Promise.all(ids.map((id, i) => sut.scheduleDelayed(id, 1000 + i)));
      const batches = await Promise.all(Array.from({ length: 10 }, () => sut.takeDue(5000, 10)));
      const taken = batches.flat();
      expect(new Set(taken).size).toBe(taken.length);
      expect(taken.sort()).toEqual(ids);
    });
  });
}

/** {@link NodeRegistryPort}. */
export function describeNodeRegistryContract(factory: FixtureFactory): void {
  describe('node registry', () => {
    let sut: NodeRegistryPort;
    useContract(factory, (port) => (sut = port));

    it('should list live nodes sorted by id with their advert and last beat', async () => {
      await sut.heartbeat('n2', advert({ host: 'box-2' }), 2000);
      await sut.heartbeat('n1', advert(), 1500);
      expect(await sut.liveNodes(1000)).toEqual([
        { nodeId: 'n1', lastBeat: 1500, info: advert() },
        { nodeId: 'n2', lastBeat: 2000, info: advert({ host: 'box-2' }) },
      ]);
    });

    it('should split live (at or after since) from stale (before since)', async () => {
      await sut.heartbeat('old', advert(), 1000);
      await sut.heartbeat('new', advert(), 2000);
      expect((await sut.liveNodes(2000)).map((n) => n.nodeId)).toEqual(['new']);
      expect((await sut.staleNodes(2000)).map((n) => n.nodeId)).toEqual(['old']);
    });

    it('should replace the advert and last beat on each heartbeat', async () => {
      await sut.heartbeat('n1', advert({ active: 1 }), 1000);
      await sut.heartbeat('n1', advert({ active: 3, labels: { zone: 'b' } }), 3000);
      expect(await sut.liveNodes(0)).toEqual([
        { nodeId: 'n1', lastBeat: 3000, info: advert({ active: 3, labels: { zone: 'b' } }) },
      ]);
    });

    it('should forget a removed node', async () => {
      await sut.heartbeat('n1', advert(), 1000);
      await sut.removeNode('n1');
      await sut.removeNode('never-seen');
      expect(await sut.liveNodes(0)).toEqual([]);
      expect(await sut.staleNodes(5000)).toEqual([]);
    });
  });
}

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

/** {@link CounterPort}. */
export function describeCounterContract(factory: FixtureFactory): void {
  describe('counters', () => {
    let sut: CounterPort;
    useContract(factory, (port) => (sut = port));

    it('should increment counters atomically by the given step', async () => {
      expect(await sut.increment('c')).toBe(1);
      expect(await sut.increment('c', 5)).toBe(6);
      expect(await sut.increment('c', -2)).toBe(4);
      expect(await sut.increment('other')).toBe(1);
      const values = await Promise.all(Array.from({ length: 20 }, () => sut.increment('race')));
      expect(values.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    });
  });
}

/** {@link SignalPort}. */
export function describeSignalContract(factory: FixtureFactory): void {
  describe('signals', () => {
    let sut: SignalPort;
    useContract(factory, (port) => (sut = port));

    /** Polls `cond` for up to 10 s (it was 1 s: little for a pub/sub round trip on a loaded machine). */
    const until = async (cond: () => boolean) => {
      for (let i = 0; i < 1000 && !cond(); i++) await sleep(10);
    };

    it('should deliver a published message to every subscriber of the channel, and stop after unsubscribe', async () => {
      const a: string[] = [];
      const b: string[] = [];
      const offA = await sut.subscribe('jobs', (m) => a.push(m));
      const offB = await sut.subscribe('jobs', (m) => b.push(m));
      await sut.publish('jobs', 'job-1');
      await until(() => a.length === 1 && b.length === 1);
      expect([a, b]).toEqual([['job-1'], ['job-1']]);
      await offA();
      await sut.publish('jobs', 'job-2');
      await until(() => b.length === 2);
      await sleep(30);
      expect([a, b]).toEqual([['job-1'], ['job-1', 'job-2']]);
      await offB();
      await offB(); // twice is harmless
      await sut.publish('jobs', 'job-3');
      await sleep(30);
      expect(b).toEqual(['job-1', 'job-2']);
    });

    it('should keep channels apart, and namespaces apart', async () => {
      const heard: string[] = [];
      await sut.subscribe('jobs', (m) => heard.push(`jobs:${m}`));
      const other = await fixture.open('other-ns');
      await other.publish('jobs', 'elsewhere');
      await sut.publish('nodes', 'n1');
      await sut.publish('jobs', 'here');
      await until(() => heard.length > 0);
      await sleep(30);
      expect(heard).toEqual(['jobs:here']);
    });

    it('should accept a publish nobody listens to', async () => {
      await expect(sut.publish('nobody', 'x')).resolves.toBeUndefined();
    });
  });
}

/** What spans the concerns: namespaces keep every concern apart; close is idempotent. */
export function describeLifecycleContract(factory: FixtureFactory): void {
  describe('namespaces and lifecycle', () => {
    let sut: CoordinationPort;
    useContract(factory, (port) => (sut = port));

    it('should keep two namespaces apart', async () => {
      const a = await fixture.open('a');
      const b = await fixture.open('b');
      await a.tryAcquireLock('leader', 'n1', 5000);
      await a.pushReady('n1', queued('x'));
      await a.scheduleDelayed('d', 1);
      await a.heartbeat('n1', advert(), 1000);
      await a.increment('c', 10);
      await a.acceptNonce('app', 'once', 5000);
      expect(await b.lockOwner('leader')).toBeNull();
      expect(await b.queueDepth('n1')).toEqual({ ready: 0, processing: 0 });
      expect(await b.claim('n1', 0)).toBeNull();
      expect(await b.takeDue(10, 10)).toEqual([]);
      expect(await b.liveNodes(0)).toEqual([]);
      expect(await b.increment('c')).toBe(1);
      expect(await b.acceptNonce('app', 'once', 5000)).toBe(true);
      expect((await a.queuedIds('n1')).has('x')).toBe(true);
    });

    it('should close idempotently', async () => {
      await sut.close();
      await expect(sut.close()).resolves.toBeUndefined();
    });
  });
}
