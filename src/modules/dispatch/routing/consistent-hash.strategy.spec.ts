import { LiveNode } from '../../coordination/index.js';
import { ConsistentHashStrategy } from './consistent-hash.strategy.js';
import { HashRing } from './hash-ring.js';
import { HashRingCache } from './hash-ring-cache.js';

const live = (nodeId: string): LiveNode => ({
  nodeId,
  lastBeat: 0,
  info: { handlers: ['h'], capacity: 4, active: 0, labels: {}, host: nodeId, startedAt: 0 },
});
const NODES = ['node-a', 'node-b', 'node-c'].map(live);

describe(ConsistentHashStrategy.name, () => {
  let sut: ConsistentHashStrategy;
  let rings: HashRingCache;

  beforeEach(() => {
    rings = new HashRingCache();
    sut = new ConsistentHashStrategy(rings);
  });

  it('should route by routing key, else by instance id, to the ring owner of that key', async () => {
    const ring = new HashRing(NODES.map((n) => n.nodeId));
    const instances = [
      { id: 'i-1', handler: 'h', routingKey: 'tenant-42' },
      { id: 'i-2', handler: 'h', routingKey: null },
    ];
    const picked = await sut.selectMany(instances, NODES);
    expect(picked.map((n) => n.nodeId)).toEqual([ring.nodeFor('tenant-42'), ring.nodeFor('i-2')]);
    expect(picked[0]).toBe(NODES.find((n) => n.nodeId === picked[0].nodeId));
  });

  it('should send every instance that shares a routing key to one node, in input order', async () => {
    const instances = Array.from({ length: 50 }, (_, i) => ({
      id: `i-${i}`,
      handler: 'h',
      routingKey: i % 2 ? 'odd' : 'even',
    }));
    const picked = await sut.selectMany(instances, NODES);
    expect(picked).toHaveLength(50);
    expect(new Set(picked.filter((_, i) => i % 2).map((n) => n.nodeId)).size).toBe(1);
    expect(new Set(picked.filter((_, i) => !(i % 2)).map((n) => n.nodeId)).size).toBe(1);
    expect((await sut.select(instances[3], NODES)).nodeId).toBe(picked[1].nodeId);
  });

  it('should build the ring once for an identical candidate set and anew when it changes', async () => {
    const inst = { id: 'i-1', handler: 'h', routingKey: null };
    await sut.select(inst, NODES);
    const first = rings.ringFor(NODES);
    await sut.selectMany(
      [inst, inst],
      NODES.map((n) => ({ ...n, info: { ...n.info, active: 3 } })),
    );
    expect(rings.ringFor(NODES)).toBe(first);
    expect(rings.ringFor(NODES.slice(1))).not.toBe(first);
  });

  it('should drop the least recently used ring past its bound', () => {
    const small = new HashRingCache(8, 2);
    const [ab, bc, ca] = [
      [NODES[0], NODES[1]],
      [NODES[1], NODES[2]],
      [NODES[2], NODES[0]],
    ];
    const ringAb = small.ringFor(ab);
    const ringBc = small.ringFor(bc);
    expect(small.ringFor(ab)).toBe(ringAb);
    small.ringFor(ca);
    expect(small.ringFor(ab)).toBe(ringAb);
    expect(small.ringFor(bc)).not.toBe(ringBc);
  });
});
