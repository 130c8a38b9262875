import { LiveNode } from '../../coordination/coordination.port.js';
import { RoutingStrategy } from '../../metadata/index.js';

/** What a strategy sees of the instance it routes. */
export interface RoutableInstance {
  id: string;
  handler: string;
  routingKey: string | null;
}

/**
 * Picks one executor for an instance among live candidates that advertise its handler (DESIGN §6).
 * Candidates arrive sorted by node id and never empty.
 */
export interface RoutingStrategyImpl {
  readonly type: RoutingStrategy;
  select(instance: RoutableInstance, candidates: LiveNode[]): Promise<LiveNode>;
}
