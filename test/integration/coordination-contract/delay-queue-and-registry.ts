import type { DelayQueuePort, NodeRegistryPort } from '../../../src/modules/coordination/index.js';
import { advert, type FixtureFactory, useContract } from './fixture.js';

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
