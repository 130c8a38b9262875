import { LiveNode } from '../../coordination/index.js';
import { FailoverStrategy } from './failover.strategy.js';

const live = (nodeId: string): LiveNode => ({
  nodeId,
  lastBeat: 0,
  info: { handlers: ['h'], capacity: 4, active: 4, labels: {}, host: nodeId, startedAt: 0 },
});
const batch = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: `i-${i}`, handler: 'h', routingKey: `k-${i}` }));

describe(FailoverStrategy.name, () => {
  const sut = new FailoverStrategy();

  it('should send every instance to the first candidate in node id order, even when busy', async () => {
    const picked = await sut.selectMany(batch(10), ['node-1', 'node-2', 'node-3'].map(live));
    expect(new Set(picked.map((n) => n.nodeId))).toEqual(new Set(['node-1']));
    expect(picked).toHaveLength(10);
  });

  it(
    'should hand over to the next node when the first drops out of the live set, ' + 'and back when it returns',
    async () => {
      expect((await sut.select(batch(1)[0], ['node-2', 'node-3'].map(live))).nodeId).toBe('node-2');
      expect((await sut.select(batch(1)[0], ['node-1', 'node-2', 'node-3'].map(live))).nodeId).toBe('node-1');
    },
  );
});
