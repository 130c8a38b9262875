import type { CoordinationPort, NodeQueuePort, ReadyItem } from '../../../src/modules/coordination/index.js';
import { type FixtureFactory, ids, useContract } from './fixture.js';

/** Items of app `appId` with the ranks given, as `id:rank` pairs. */
function ranked(appId: string, ...pairs: Array<[string, number]>): ReadyItem[] {
  return pairs.map(([id, rank]) => ({ id, appId, rank }));
}

/** {@link NodeQueuePort}'s order by rank within an app (docs/dispatch.md "Priorities"), fair sharing kept. */
export function describeNodeQueueRankContract(factory: FixtureFactory): void {
  describe('node queues: ranks', () => {
    let sut: NodeQueuePort & Pick<CoordinationPort, 'close'>;
    useContract(factory, (port) => (sut = port));

    it("should claim an app's ids lowest rank first, whatever the order they were pushed in", async () => {
      await sut.pushReady('n1', ranked('A', ['low-1', 100], ['low-2', 101], ['low-3', 102]));
      await sut.pushReady('n1', ranked('A', ['high-1', 50], ['high-2', 51]));
      expect(ids(await sut.claimMany('n1', 2, 0))).toEqual(['high-1', 'high-2']);
      await sut.pushReady('n1', ranked('A', ['mid', 101.5]));
      expect(ids(await sut.claimMany('n1', 10, 0))).toEqual(['low-1', 'low-2', 'mid', 'low-3']);
    });

    it('should order equal ranks by id, and keep one entry of an id pushed again, at its new rank', async () => {
      await sut.pushReady('n1', ranked('A', ['b', 7], ['c', 7], ['a', 7], ['z', 1]));
      await sut.pushReady('n1', ranked('A', ['z', 9]));
      expect(await sut.queueDepth('n1')).toEqual({ ready: 4, processing: 0 });
      expect(ids(await sut.claimMany('n1', 10, 0))).toEqual(['a', 'b', 'c', 'z']);
    });

    it('should order by rank within each app only: apps still take turns and keep their caps', async () => {
      await sut.pushReady('n1', ranked('A', ['a-urgent-1', -5000], ['a-urgent-2', -5000], ['a-urgent-3', -5000]));
      await sut.pushReady('n1', ranked('B', ['b-low-1', 9000], ['b-low-2', 9001]));
      const share = { cap: 2, held: new Map<string, number>() };
      expect(await sut.claimMany('n1', 10, 0, share)).toEqual([
        { id: 'a-urgent-1', appId: 'A' },
        { id: 'b-low-1', appId: 'B' },
        { id: 'a-urgent-2', appId: 'A' },
        { id: 'b-low-2', appId: 'B' },
      ]);
      expect(await sut.queueDepth('n1')).toEqual({ ready: 1, processing: 4 });
    });

    it('should list and drain ids of every app, each app lowest rank first', async () => {
      await sut.pushReady('n1', [...ranked('A', ['a2', 2], ['a1', 1]), ...ranked('B', ['b1', 0])]);
      expect([...(await sut.queuedIds('n1'))].sort()).toEqual(['a1', 'a2', 'b1']);
      expect(await sut.drainNode('n1')).toEqual(['a1', 'a2', 'b1']);
    });

    it('should keep every id and rank of one large push (the script adds them in chunks)', async () => {
      const n = 1500;
      const pairs = Array.from({ length: n }, (_, i): [string, number] => [`id-${String(i).padStart(4, '0')}`, n - i]);
      await sut.pushReady('n1', ranked('A', ...pairs));
      expect(await sut.queueDepth('n1')).toEqual({ ready: n, processing: 0 });
      expect(ids(await sut.claimMany('n1', n, 0))).toEqual(pairs.map(([id]) => id).reverse());
    });

    it('should refuse a push with a rank that is not a finite number and queue nothing of it', async () => {
      const bad = [...ranked('A', ['ok', 1]), { id: 'x', appId: 'A', rank: Number.NaN }];
      await expect(sut.pushReady('n1', bad)).rejects.toThrow(/rank/);
      await expect(sut.pushReady('n1', ranked('A', ['inf', Number.POSITIVE_INFINITY]))).rejects.toThrow(/rank/);
      expect(await sut.queueDepth('n1')).toEqual({ ready: 0, processing: 0 });
    });
  });
}
