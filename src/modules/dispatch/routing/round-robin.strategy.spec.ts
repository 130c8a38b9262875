import type { CounterPort, LiveNode } from '../../coordination/index.js';
import { RoundRobinStrategy } from './round-robin.strategy.js';

const live = (nodeId: string): LiveNode => ({
  nodeId,
  lastBeat: 0,
  info: { handlers: ['h'], capacity: 4, active: 0, labels: {}, host: nodeId, startedAt: 0 },
});
const NODES = ['node-a', 'node-b', 'node-c'].map(live);
const inst = (id: string, handler = 'h') => ({ id, handler, routingKey: null });
const ids = (nodes: LiveNode[]) => nodes.map((n) => n.nodeId);

/** The counters port, recording each call's arguments. */
function countersPort(): { port: CounterPort; calls: [string, number][] } {
  const counters = new Map<string, number>();
  const calls: [string, number][] = [];
  const increment = async (name: string, by = 1): Promise<number> => {
    calls.push([name, by]);
    counters.set(name, (counters.get(name) ?? 0) + by);
    return counters.get(name)!;
  };
  return { port: { increment }, calls };
}

describe(RoundRobinStrategy.name, () => {
  let sut: RoundRobinStrategy;
  let calls: [string, number][];

  beforeEach(() => {
    const fake = countersPort();
    sut = new RoundRobinStrategy(fake.port);
    calls = fake.calls;
  });

  it('should rotate one position per select on the handler counter', async () => {
    const picked = [];
    for (let i = 0; i < 4; i++) picked.push(await sut.select(inst(`${i}`), NODES));
    expect(ids(picked)).toEqual(['node-a', 'node-b', 'node-c', 'node-a']);
    expect(calls).toEqual(Array(4).fill(['rr:h', 1]));
  });

  it('should reserve a batch of instances in one round trip and continue the same rotation', async () => {
    await sut.select(inst('0'), NODES);
    calls.length = 0;
    const picked = await sut.selectMany(
      ['1', '2', '3', '4', '5'].map((id) => inst(id)),
      NODES,
    );
    expect(ids(picked)).toEqual(['node-b', 'node-c', 'node-a', 'node-b', 'node-c']);
    expect(calls).toEqual([['rr:h', 5]]);
  });

  it('should keep one counter per handler in a mixed batch, one round trip each, results in input order', async () => {
    const picked = await sut.selectMany(
      [inst('1', 'x'), inst('2', 'y'), inst('3', 'x'), inst('4', 'y'), inst('5', 'x')],
      NODES,
    );
    expect(ids(picked)).toEqual(['node-a', 'node-a', 'node-b', 'node-b', 'node-c']);
    expect(calls).toEqual([
      ['rr:x', 3],
      ['rr:y', 2],
    ]);
  });

  it('should make no round trip for an empty batch', async () => {
    expect(await sut.selectMany([], NODES)).toEqual([]);
    expect(await sut.selectMany('h', 0, NODES)).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('should keep the (handler, count, candidates) form that dispatch uses, sharing the same counter', async () => {
    const first = await sut.selectMany('h', 4, NODES);
    const next = await sut.selectMany([inst('5')], NODES);
    expect(ids(first)).toEqual(['node-a', 'node-b', 'node-c', 'node-a']);
    expect(ids(next)).toEqual(['node-b']);
    expect(calls).toEqual([
      ['rr:h', 4],
      ['rr:h', 1],
    ]);
  });
});
