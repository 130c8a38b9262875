import { LiveNode } from '../../coordination/index.js';
import { RandomStrategy } from './random.strategy.js';

const live = (nodeId: string): LiveNode => ({
  nodeId,
  lastBeat: 0,
  info: { handlers: ['h'], capacity: 4, active: 0, labels: {}, host: nodeId, startedAt: 0 },
});
const NODES = ['node-a', 'node-b', 'node-c', 'node-d'].map(live);
const inst = (id: string) => ({ id, handler: 'h', routingKey: null });

/** A fixed sequence of draws, repeated. */
const seq = (...values: number[]) => {
  let i = 0;
  return () => values[i++ % values.length];
};

describe(RandomStrategy.name, () => {
  it('should map each draw in [0, 1) to floor(draw × candidates), one draw per instance in order', async () => {
    const sut = new RandomStrategy(seq(0, 0.25, 0.5, 0.99, 0.74));
    const picked = await sut.selectMany(['1', '2', '3', '4', '5'].map(inst), NODES);
    expect(picked.map((n) => n.nodeId)).toEqual(['node-a', 'node-b', 'node-c', 'node-d', 'node-c']);
  });

  it('should clamp a draw outside [0, 1) to the first or last candidate', async () => {
    const sut = new RandomStrategy(seq(1, -0.5));
    expect((await sut.select(inst('1'), NODES)).nodeId).toBe('node-d');
    expect((await sut.select(inst('2'), NODES)).nodeId).toBe('node-a');
  });

  it('should spread evenly with Math.random by default', async () => {
    const sut = new RandomStrategy();
    const picked = await sut.selectMany(
      Array.from({ length: 4000 }, (_, i) => inst(`${i}`)),
      NODES,
    );
    const counts = NODES.map((n) => picked.filter((p) => p === n).length);
    for (const c of counts) expect(Math.abs(c - 1000)).toBeLessThan(200);
  });
});
