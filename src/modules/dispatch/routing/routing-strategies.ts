import { ValidationError } from '../../../common/index.js';
import type { CounterPort, NodeQueuePort } from '../../coordination/index.js';
import { RoutingStrategy } from '../../metadata/index.js';
import { ConsistentHashStrategy } from './consistent-hash.strategy.js';
import { FailoverStrategy } from './failover.strategy.js';
import { DEFAULT_VIRTUAL_NODES } from './hash-ring.js';
import { HashRingCache } from './hash-ring-cache.js';
import { LeastActiveStrategy } from './least-active.strategy.js';
import { RandomStrategy, type Rng } from './random.strategy.js';
import { RoundRobinStrategy } from './round-robin.strategy.js';
import { RoutingStrategyImpl } from './routing-strategy.js';
import { ShardingBroadcastStrategy } from './sharding-broadcast.strategy.js';

/** Knobs of {@link RoutingStrategies}; every one has a production default. */
export interface RoutingStrategiesOptions {
  /** RANDOM's uniform source in [0, 1); `Math.random` by default. */
  rng?: Rng;
  /** Ring points per node for CONSISTENT_HASH; 160 by default. */
  virtualNodes?: number;
}

/** The coordination concerns the strategies read: ROUND_ROBIN's counters and LEAST_ACTIVE's node loads. */
export interface RoutingPorts {
  counters: CounterPort;
  queues: Pick<NodeQueuePort, 'queueDepths'>;
}

/** One of each strategy by {@link RoutingStrategy}, kept so the ring cache is reused. */
export class RoutingStrategies {
  private readonly byType: ReadonlyMap<RoutingStrategy, RoutingStrategyImpl>;

  constructor(ports: RoutingPorts, options: RoutingStrategiesOptions = {}) {
    const rings = new HashRingCache(options.virtualNodes ?? DEFAULT_VIRTUAL_NODES);
    const all: RoutingStrategyImpl[] = [
      new RoundRobinStrategy(ports.counters),
      new RandomStrategy(options.rng),
      new LeastActiveStrategy(async (nodeIds) =>
        (await ports.queues.queueDepths(nodeIds)).map((d) => d.ready + d.processing),
      ),
      new ConsistentHashStrategy(rings),
      new FailoverStrategy(),
      new ShardingBroadcastStrategy(),
    ];
    this.byType = new Map(all.map((s) => [s.type, s]));
  }

  /** The strategy for `type`. @throws ValidationError (`routingStrategy`) for an unknown value */
  for(type: RoutingStrategy): RoutingStrategyImpl {
    const strategy = this.byType.get(type);
    if (!strategy) throw new ValidationError('routingStrategy', `unknown routing strategy '${String(type)}'`);
    return strategy;
  }
}
