import { LiveNode } from '../../coordination/index.js';
import { RoutingStrategy } from '../../metadata/index.js';
import { RoutableInstance, RoutingStrategyImpl } from './routing-strategy.js';

/** FAILOVER (docs/dispatch.md): everything to `candidates[0]`; the next takes over while it is not live. */
export class FailoverStrategy implements RoutingStrategyImpl {
  readonly type = RoutingStrategy.FAILOVER;

  async select(_instance: RoutableInstance, candidates: LiveNode[]): Promise<LiveNode> {
    return candidates[0];
  }

  async selectMany(instances: RoutableInstance[], candidates: LiveNode[]): Promise<LiveNode[]> {
    return instances.map(() => candidates[0]);
  }
}
