/** Routing strategies of dispatch (docs/dispatch.md): the {@link RoutingStrategies} registry and the strategies. */
export { type RoutingPorts, RoutingStrategies, type RoutingStrategiesOptions } from './routing-strategies.js';
export { type RoutableInstance, type RoutingStrategyImpl } from './routing-strategy.js';
export { RoundRobinStrategy } from './round-robin.strategy.js';
export { RandomStrategy, type Rng } from './random.strategy.js';
export { LeastActiveStrategy } from './least-active.strategy.js';
export { ConsistentHashStrategy } from './consistent-hash.strategy.js';
export { FailoverStrategy } from './failover.strategy.js';
export { ShardingBroadcastStrategy, placeShard, shardOrder } from './sharding-broadcast.strategy.js';
export { HashRing, DEFAULT_VIRTUAL_NODES, ringPosition } from './hash-ring.js';
export { HashRingCache, DEFAULT_MAX_RINGS } from './hash-ring-cache.js';
