import { LiveNode } from '../../coordination/index.js';
import { RoutingStrategy } from '../../metadata/index.js';
import { HashRingCache } from './hash-ring-cache.js';
import { RoutableInstance, RoutingStrategyImpl } from './routing-strategy.js';

/**
 * CONSISTENT_HASH (DESIGN §6): an instance goes to the owner of its key on a {@link HashRing} of the
 * candidates (virtual nodes, MD5-derived 64-bit positions). The key is `routingKey`, or the instance id
 * when there is none, so instances that share a routing key land on one node for as long as the live set
 * is unchanged, and a node joining or leaving moves only about 1/N of the keys.
 *
 * No coordination state: every scheduler pod computes the same answer from the same live set. Rings are
 * cached per candidate set in the injected {@link HashRingCache}.
 */
export class ConsistentHashStrategy implements RoutingStrategyImpl {
  readonly type: RoutingStrategy = RoutingStrategy.CONSISTENT_HASH;

  /** @param rings ring cache (one per {@link RoutingStrategies}) */
  constructor(private readonly rings: HashRingCache = new HashRingCache()) {}

  /** The owner of the instance's key. */
  async select(instance: RoutableInstance, candidates: LiveNode[]): Promise<LiveNode> {
    return this.rings.place(candidates, [this.keyOf(instance)])[0];
  }

  /** The owner of each instance's key, in input order; one ring look-up per batch. */
  async selectMany(instances: RoutableInstance[], candidates: LiveNode[]): Promise<LiveNode[]> {
    return this.rings.place(
      candidates,
      instances.map((i) => this.keyOf(i)),
    );
  }

  /** The ring key of an instance: its routing key, else its id. */
  private keyOf(instance: RoutableInstance): string {
    return instance.routingKey ?? instance.id;
  }
}
