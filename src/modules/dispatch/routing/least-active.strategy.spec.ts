import { LiveNode } from '../../coordination/index.js';
import { LeastActiveStrategy } from './least-active.strategy.js';

const live = (nodeId: string, active: number, capacity: number): LiveNode => ({
  nodeId,
  lastBeat: 0,
  info: { handlers: ['h'], capacity, active, labels: {}, host: nodeId, startedAt: 0 },
});
const batch = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `i-${i}`, handler: 'h', routingKey: null }));
const countBy = (picked: LiveNode[]) =>
  picked.reduce<Record<string, number>>((m, p) => ({ ...m, [p.nodeId]: (m[p.nodeId] ?? 0) + 1 }), {});

describe(LeastActiveStrategy.name, () => {
  const sut = new LeastActiveStrategy();

  it('should pick the lowest active / capacity ratio, not the lowest active count', async () => {
    const nodes = [live('a', 4, 8), live('b', 3, 4), live('c', 1, 10)];
    expect((await sut.select(batch(1)[0], nodes)).nodeId).toBe('c');
    expect((await sut.select(batch(1)[0], [live('a', 4, 8), live('b', 3, 4)])).nodeId).toBe('a');
  });

  it('should break ratio ties by lower active count, then by node id', async () => {
    expect((await sut.select(batch(1)[0], [live('a', 2, 4), live('b', 1, 2)])).nodeId).toBe('b');
    expect((await sut.select(batch(1)[0], [live('b', 1, 4), live('a', 1, 4)])).nodeId).toBe('a');
  });

  it('should count its own picks within a batch so 100 instances spread by free capacity', async () => {
    const nodes = [live('a', 0, 10), live('b', 5, 10), live('c', 10, 10)];
    const picked = await sut.selectMany(batch(100), nodes);
    const counts = countBy(picked);
    // 115 tasks over 30 equal slots: every node ends at 38 or 39 active, the spare one on the lowest id
    expect(counts).toEqual({ a: 39, b: 33, c: 28 });
    expect(picked.slice(0, 5).map((n) => n.nodeId)).toEqual(['a', 'a', 'a', 'a', 'a']);
  });

  it('should fill nodes in proportion to capacity', async () => {
    const picked = await sut.selectMany(batch(60), [live('big', 0, 40), live('small', 0, 20)]);
    expect(countBy(picked)).toEqual({ big: 40, small: 20 });
  });

  it(
    'should use a zero-capacity node only when every candidate has zero capacity, ' +
      'and treat a bad active count as 0',
    async () => {
      expect(countBy(await sut.selectMany(batch(3), [live('a', 0, 0), live('b', 9, 10)]))).toEqual({ b: 3 });
      expect(countBy(await sut.selectMany(batch(4), [live('a', 0, 0), live('b', 0, 0)]))).toEqual({ a: 2, b: 2 });
      expect((await sut.select(batch(1)[0], [live('a', 1, 4), live('b', Number.NaN, 4)])).nodeId).toBe('b');
    },
  );

  it('should return nothing for an empty batch', async () => {
    expect(await sut.selectMany([], [live('a', 0, 1)])).toEqual([]);
  });

  it(
    'should route by the load read at routing time, counting its own picks on top, ' +
      'and fall back to the heartbeat when the read fails',
    async () => {
      const asked: string[][] = [];
      const measured = new LeastActiveStrategy(async (ids) => {
        asked.push(ids);
        return ids.map((id) => ({ a: 8, b: 0 })[id] ?? 0);
      });
      // the heartbeats say a is idle and b busy; the queues say the opposite: the queues win
      const nodes = [live('a', 0, 10), live('b', 9, 10)];
      expect(countBy(await measured.selectMany(batch(10), nodes))).toEqual({ a: 1, b: 9 });
      expect(asked).toEqual([['a', 'b']]);
      const failing = new LeastActiveStrategy(async () => Promise.reject(new Error('redis down')));
      expect(countBy(await failing.selectMany(batch(1), nodes))).toEqual({ a: 1 });
    },
  );
});
