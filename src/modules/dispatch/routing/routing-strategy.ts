import { LiveNode } from '../../coordination/index.js';
import { RoutingStrategy } from '../../metadata/index.js';

/** What a strategy sees of an instance; a `JobInstance` row fits as it is. */
export interface RoutableInstance {
  id: string;
  handler: string;
  /** CONSISTENT_HASH key; null means "hash the instance id". */
  routingKey: string | null;
  /** Job definition id, null for API tasks; SHARDING_BROADCAST deals the shards of a job over its node order. */
  jobId?: string | null;
  /** Shard of the fire, 0-based (0 when the job is not sharded). */
  shardIndex?: number;
}

/** Picks among `candidates` (sorted by node id, non-empty, all serving the handler), never outside them. */
export interface RoutingStrategyImpl {
  readonly type: RoutingStrategy;
  /** One instance: the node it goes to. */
  select(instance: RoutableInstance, candidates: LiveNode[]): Promise<LiveNode>;
  /** `result[i]` is the node of `instances[i]`; ≤ 1 round trip per handler; counts its own picks for load. */
  selectMany(instances: RoutableInstance[], candidates: LiveNode[]): Promise<LiveNode[]>;
}
