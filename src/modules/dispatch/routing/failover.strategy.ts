import { LiveNode } from '../../coordination/index.js';
import { RoutingStrategy } from '../../metadata/index.js';
import { RoutableInstance, RoutingStrategyImpl } from './routing-strategy.js';

/**
 * FAILOVER (DESIGN §6): everything goes to the first healthy node in a stable order, i.e. `candidates[0]`
 * (candidates are the live nodes advertising the handler, sorted by node id). When that node stops
 * heart-beating it drops out of the candidates and the next one in order takes over; when it comes back
 * it is first again and takes the work back. No shared state, no round trip.
 */
export class FailoverStrategy implements RoutingStrategyImpl {
  readonly type = RoutingStrategy.FAILOVER;

  /** The first candidate. */
  async select(_instance: RoutableInstance, candidates: LiveNode[]): Promise<LiveNode> {
    return candidates[0];
  }

  /** The first candidate, for every instance. */
  async selectMany(instances: RoutableInstance[], candidates: LiveNode[]): Promise<LiveNode[]> {
    return instances.map(() => candidates[0]);
  }
}
