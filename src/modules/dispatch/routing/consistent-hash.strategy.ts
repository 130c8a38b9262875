import { LiveNode } from '../../coordination/index.js';
import { RoutingStrategy } from '../../metadata/index.js';
import { HashRingCache } from './hash-ring-cache.js';
import { RoutableInstance, RoutingStrategyImpl } from './routing-strategy.js';

/** CONSISTENT_HASH (docs/dispatch.md): the owner of `routingKey` (else the instance id) on the candidates' ring. */
export class ConsistentHashStrategy implements RoutingStrategyImpl {
  readonly type: RoutingStrategy = RoutingStrategy.CONSISTENT_HASH;

  /** @param rings ring cache (one per {@link RoutingStrategies}) */
  constructor(private readonly rings: HashRingCache = new HashRingCache()) {}

  async select(instance: RoutableInstance, candidates: LiveNode[]): Promise<LiveNode> {
    return this.rings.place(candidates, [this.keyOf(instance)])[0];
  }

  async selectMany(instances: RoutableInstance[], candidates: LiveNode[]): Promise<LiveNode[]> {
    return this.rings.place(
      candidates,
      instances.map((i) => this.keyOf(i)),
    );
  }

  private keyOf(instance: RoutableInstance): string {
    return instance.routingKey ?? instance.id;
  }
}
