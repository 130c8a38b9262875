import { LiveNode } from '../../coordination/index.js';
import { RoutingStrategy } from '../../metadata/index.js';
import { RoutableInstance, RoutingStrategyImpl } from './routing-strategy.js';

/** The load (routed, not finished) of `nodeIds` now, aligned; queue lengths count other pods' picks. */
export type NodeLoadSource = (nodeIds: string[]) => Promise<number[]>;

/**
 * LEAST_ACTIVE (docs/dispatch.md): the lowest `(load + picked) / capacity`, ties to lower load, then lower
 * node id. Without a load source, or when it fails, the heartbeat's `active` stands in. `capacity <= 0`
 * is an infinite ratio; a missing, negative or non-finite load counts as 0.
 */
export class LeastActiveStrategy implements RoutingStrategyImpl {
  readonly type = RoutingStrategy.LEAST_ACTIVE;

  /** @param loadOf where the current load of nodes is read; none: heartbeat `active` only. */
  constructor(private readonly loadOf?: NodeLoadSource) {}

  async select(instance: RoutableInstance, candidates: LiveNode[]): Promise<LiveNode> {
    return (await this.selectMany([instance], candidates))[0];
  }

  async selectMany(instances: RoutableInstance[], candidates: LiveNode[]): Promise<LiveNode[]> {
    const measured = this.loadOf ? await this.loadOf(candidates.map((c) => c.nodeId)).catch(() => null) : null;
    const loads = candidates.map((c, j) => {
      const active = measured?.[j] ?? c.info.active;
      return Number.isFinite(active) && active > 0 ? active : 0;
    });
    const ratio = (j: number): number =>
      candidates[j].info.capacity > 0 ? loads[j] / candidates[j].info.capacity : Infinity;
    const lighter = (j: number, k: number): boolean =>
      ratio(j) !== ratio(k)
        ? ratio(j) < ratio(k)
        : loads[j] !== loads[k]
          ? loads[j] < loads[k]
          : candidates[j].nodeId < candidates[k].nodeId;
    return instances.map(() => {
      let best = 0;
      for (let j = 1; j < candidates.length; j++) if (lighter(j, best)) best = j;
      loads[best]++;
      return candidates[best];
    });
  }
}
