import { LiveNode } from '../../coordination/index.js';
import { RoutingStrategy } from '../../metadata/index.js';
import { RoutableInstance, RoutingStrategyImpl } from './routing-strategy.js';

/**
 * Reads the load of nodes now (aligned with `nodeIds`): what is routed to each and not finished. In
 * production the lengths of the node's Redis lists, ready + processing (CoordinationPort.queueDepths):
 * counters every pod's dispatch and every executor move atomically, so the load seen includes the
 * picks of other pods and of earlier batches, unlike a heartbeat up to 5 s old.
 */
export type NodeLoadSource = (nodeIds: string[]) => Promise<number[]>;

/**
 * LEAST_ACTIVE (DESIGN §6): each instance goes to the candidate with the lowest load ratio
 * `(load + picked) / capacity`, where `load` is read from Redis at routing time ({@link NodeLoadSource}:
 * queued + running ids of the node, one round trip per batch), `capacity` comes from the node's heartbeat
 * and `picked` counts this batch's own earlier picks. A batch therefore fills nodes up evenly by ratio
 * (water-filling). Ties go to the lower absolute load, then to the lower node id, so the result is
 * deterministic.
 *
 * Without a load source, or when reading it fails, the heartbeat's `active` count stands in (up to one
 * heartbeat old, and blind to other pods' picks since). A node advertising `capacity <= 0` has an
 * infinite ratio: it is picked only when every candidate does. A missing, negative or non-finite load
 * counts as 0. Cost O(instances × candidates).
 */
export class LeastActiveStrategy implements RoutingStrategyImpl {
  readonly type = RoutingStrategy.LEAST_ACTIVE;

  /** @param loadOf where the current load of nodes is read; none: heartbeat `active` only. */
  constructor(private readonly loadOf?: NodeLoadSource) {}

  /** The least loaded candidate. */
  async select(instance: RoutableInstance, candidates: LiveNode[]): Promise<LiveNode> {
    return (await this.selectMany([instance], candidates))[0];
  }

  /** One pick per instance, in input order, each counting the picks before it. */
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
