import { LiveNode } from '../../coordination/index.js';
import { RoutingStrategy } from '../../metadata/index.js';

/**
 * What a strategy sees of the instance it routes. A `JobInstance` row fits this shape as it is, so
 * dispatch can pass rows straight in.
 */
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

/**
 * Picks executors for instances among live candidates that advertise their handler (DESIGN §6).
 * Candidates arrive sorted by node id, never empty, and every one of them advertises the handler;
 * strategies do not re-check that. Implementations never return a node outside `candidates`.
 */
export interface RoutingStrategyImpl {
  readonly type: RoutingStrategy;
  /** One instance: the node it goes to. */
  select(instance: RoutableInstance, candidates: LiveNode[]): Promise<LiveNode>;
  /**
   * A batch (what dispatch calls): the node of each instance, in the order of `instances`
   * (`result[i]` is the node of `instances[i]`, `result.length === instances.length`). A strategy with
   * shared state does at most one coordination round trip per distinct handler in the batch, and a
   * strategy that balances load counts its own picks within the batch.
   */
  selectMany(instances: RoutableInstance[], candidates: LiveNode[]): Promise<LiveNode[]>;
}
