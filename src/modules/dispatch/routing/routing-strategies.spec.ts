import { ValidationError } from '../../../common/index.js';
import type { LiveNode } from '../../coordination/index.js';
import { RoutingStrategy } from '../../metadata/index.js';
import { ConsistentHashStrategy } from './consistent-hash.strategy.js';
import { RandomStrategy } from './random.strategy.js';
import { RoutingStrategies } from './routing-strategies.js';

const live = (nodeId: string): LiveNode => ({
  nodeId,
  lastBeat: 0,
  info: { handlers: ['h'], capacity: 4, active: 0, labels: {}, host: nodeId, startedAt: 0 },
});

describe(RoutingStrategies.name, () => {
  const counted: string[] = [];
  const port = {
    counters: { increment: async (name: string) => (counted.push(name), counted.length) },
    queues: { queueDepths: async () => [] },
  };

  it('should return a strategy of the asked type for every RoutingStrategy value, the same instance each time', () => {
    const sut = new RoutingStrategies(port);
    for (const type of Object.values(RoutingStrategy)) {
      expect(sut.for(type).type).toBe(type);
      expect(sut.for(type)).toBe(sut.for(type));
    }
    expect(sut.for(RoutingStrategy.CONSISTENT_HASH)).toBeInstanceOf(ConsistentHashStrategy);
    expect(sut.for(RoutingStrategy.RANDOM)).toBeInstanceOf(RandomStrategy);
  });

  it('should refuse an unknown strategy name with a ValidationError on routingStrategy', () => {
    const sut = new RoutingStrategies(port);
    expect(() => sut.for('NEAREST' as RoutingStrategy)).toThrow(ValidationError);
    expect(() => sut.for('NEAREST' as RoutingStrategy)).toThrow(/unknown routing strategy 'NEAREST'/);
  });

  it('should pass the rng to RANDOM and use the ROUND_ROBIN counters of the port', async () => {
    const sut = new RoutingStrategies(port, { rng: () => 0.99 });
    const nodes = ['a', 'b'].map(live);
    const inst = { id: 'i', handler: 'h', routingKey: null };
    expect((await sut.for(RoutingStrategy.RANDOM).select(inst, nodes)).nodeId).toBe('b');
    expect((await sut.for(RoutingStrategy.ROUND_ROBIN).select(inst, nodes)).nodeId).toBe('a');
    expect(counted).toEqual(['rr:h']);
  });
});
