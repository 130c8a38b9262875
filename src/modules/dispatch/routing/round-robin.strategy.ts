import { CoordinationPort } from '../../coordination/coordination.port.js';
import { LiveNode } from '../../coordination/coordination.port.js';
import { RoutingStrategy } from '../../metadata/index.js';
import { RoutableInstance, RoutingStrategyImpl } from './routing-strategy.js';

/**
 * ROUND_ROBIN: a shared counter per handler (coordination `increment`, so every API and scheduler pod
 * advances the same sequence) modulo the sorted candidate list.
 */
export class RoundRobinStrategy implements RoutingStrategyImpl {
  readonly type = RoutingStrategy.ROUND_ROBIN;

  constructor(private readonly coordination: CoordinationPort) {}

  async select(instance: RoutableInstance, candidates: LiveNode[]): Promise<LiveNode> {
    const n = await this.coordination.increment(`rr:${instance.handler}`);
    return candidates[(n - 1) % candidates.length];
  }

  /** Reserves `count` consecutive positions in one round trip (batch dispatch). */
  async selectMany(handler: string, count: number, candidates: LiveNode[]): Promise<LiveNode[]> {
    const end = await this.coordination.increment(`rr:${handler}`, count);
    const start = end - count;
    return Array.from({ length: count }, (_, i) => candidates[(start + i) % candidates.length]);
  }
}
