import { LiveNode } from '../../coordination/index.js';
import { RoutingStrategy } from '../../metadata/index.js';
import { ringPosition } from './hash-ring.js';
import { RoutableInstance, RoutingStrategyImpl } from './routing-strategy.js';

/**
 * The node order of job `jobId` over `nodeIds`: rendezvous (highest-random-weight) hashing, each node
 * ranked by `ringPosition("<jobId>|<nodeId>")`, highest first, ties by node id. It depends only on the
 * job and the node set, so every scheduler pod computes the same order; different jobs get different
 * orders, so the first shards of many jobs do not all land on one node. When a node leaves, the others
 * keep their relative order.
 */
export function shardOrder(jobId: string, nodeIds: string[]): string[] {
  const ranked = nodeIds.map((nodeId) => ({ nodeId, weight: ringPosition(`${jobId}|${nodeId}`) }));
  ranked.sort((a, b) =>
    a.weight !== b.weight ? (a.weight > b.weight ? -1 : 1) : a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0,
  );
  return ranked.map((r) => r.nodeId);
}

/**
 * The node of shard `shardIndex` (0-based) of job `jobId` among `nodeIds`: position `shardIndex mod N`
 * of {@link shardOrder}. Shards are dealt round the job's node order like cards, so T shards over N nodes
 * put ⌊T/N⌋ or ⌈T/N⌉ on each node — every node gets a share when T ≥ N, and no two shards share a node
 * when T ≤ N (ElasticJob's average allocation). The fire time plays no part: a shard stays on one node
 * from fire to fire while the live set is unchanged.
 */
export function placeShard(jobId: string, shardIndex: number, nodeIds: string[]): string {
  const order = shardOrder(jobId, nodeIds);
  return order[((shardIndex % order.length) + order.length) % order.length];
}

/**
 * SHARDING_BROADCAST (DESIGN §6): the trigger creates one instance per shard (`shardIndex` of
 * `shardTotal`); this strategy places each as {@link placeShard} does, so a fire's shards are spread evenly
 * over the live candidates. An instance with no `jobId` (an API task) uses its own id as the job, and a
 * missing `shardIndex` counts as 0. No coordination state; one node order per job per batch.
 *
 * Whatever the placement, the ledger's unique key (job_id, fire_time, shard_index) keeps each shard of a
 * fire single when the node count changes (DESIGN §5).
 */
export class ShardingBroadcastStrategy implements RoutingStrategyImpl {
  readonly type: RoutingStrategy = RoutingStrategy.SHARDING_BROADCAST;

  /** The node of one shard instance. */
  async select(instance: RoutableInstance, candidates: LiveNode[]): Promise<LiveNode> {
    return (await this.selectMany([instance], candidates))[0];
  }

  /** The node of each shard instance, in input order. */
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
