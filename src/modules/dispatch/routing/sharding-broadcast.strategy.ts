import { LiveNode } from '../../coordination/index.js';
import { RoutingStrategy } from '../../metadata/index.js';
import { ringPosition } from './hash-ring.js';
import { RoutableInstance, RoutingStrategyImpl } from './routing-strategy.js';

/** Job `jobId`'s node order (docs/dispatch.md): by `ringPosition("<jobId>|<nodeId>")` descending, ties by id. */
export function shardOrder(jobId: string, nodeIds: string[]): string[] {
  const ranked = nodeIds.map((nodeId) => ({ nodeId, weight: ringPosition(`${jobId}|${nodeId}`) }));
  ranked.sort((a, b) =>
    a.weight !== b.weight ? (a.weight > b.weight ? -1 : 1) : a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0,
  );
  return ranked.map((r) => r.nodeId);
}

/** The node of shard `shardIndex` (0-based) of job `jobId`: position `shardIndex mod N` of {@link shardOrder}. */
export function placeShard(jobId: string, shardIndex: number, nodeIds: string[]): string {
  const order = shardOrder(jobId, nodeIds);
  return order[((shardIndex % order.length) + order.length) % order.length];
}

/** SHARDING_BROADCAST: as {@link placeShard}; no `jobId` (API task): the instance id; no `shardIndex`: 0. */
export class ShardingBroadcastStrategy implements RoutingStrategyImpl {
  readonly type: RoutingStrategy = RoutingStrategy.SHARDING_BROADCAST;

  async select(instance: RoutableInstance, candidates: LiveNode[]): Promise<LiveNode> {
    return (await this.selectMany([instance], candidates))[0];
  }

  async selectMany(instances: RoutableInstance[], candidates: LiveNode[]): Promise<LiveNode[]> {
    const byId = new Map(candidates.map((c) => [c.nodeId, c]));
    const ids = candidates.map((c) => c.nodeId);
    const orders = new Map<string, string[]>();
    return instances.map((instance) => {
      const jobId = instance.jobId ?? instance.id;
      let order = orders.get(jobId);
      if (!order) orders.set(jobId, (order = shardOrder(jobId, ids)));
      const index = instance.shardIndex ?? 0;
      return byId.get(order[((index % order.length) + order.length) % order.length]) as LiveNode;
    });
  }
}
