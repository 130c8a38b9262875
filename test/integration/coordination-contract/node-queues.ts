import type { CoordinationPort, NodeQueuePort } from '../../../src/modules/coordination/index.js';
import { sleep } from '../../utils/async.js';
import { type FixtureFactory, ids, of, queued, useContract } from './fixture.js';

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
          apps.map((appId, i) => ({ id: `id-${i}`, appId, rank: 0 })),
        );
        const got = await sut.claimMany('n1', 10, 0, share(1));
        expect(got).toEqual(apps.map((appId, i) => ({ id: `id-${i}`, appId })));
      });

      it('should refuse an item without an app id and queue nothing of that push', async () => {
        await expect(sut.pushReady('n1', [...of('A', 'a1'), { id: 'x', appId: '', rank: 0 }])).rejects.toThrow(/app/);
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
