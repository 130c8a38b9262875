import type { RedisClient } from '../../../infra/redis/index.js';
import { ComposedCoordination } from '../composed-coordination.js';
import { RedisCounter } from './redis-counter.js';
import { RedisDelayQueue } from './redis-delay-queue.js';
import { RedisKeys } from './redis-keys.js';
import { RedisLock } from './redis-lock.js';
import { RedisNodeQueue } from './redis-node-queue.js';
import { RedisNodeRegistry } from './redis-node-registry.js';
import { RedisNonce } from './redis-nonce.js';
import { RedisSemaphore } from './redis-semaphore.js';
import { RedisSignal } from './redis-signal.js';
import { ScriptLoader } from './script-loader.js';

let defaultScripts: ScriptLoader | undefined;

/**
 * {@link CoordinationPort} on Redis 7 (the cluster shape, docs/architecture.md): one server, a Sentinel group's master
 * or a Redis Cluster (docs/deploy.md "Redis Sentinel and Cluster"; every key of a script shares the namespace's
 * slot, docs/redis-keys.md); what needs atomicity is Lua in `lua/`. `close()` closes only the connections the
 * parts made, not `redis`.
 */
export class RedisCoordinationAdapter extends ComposedCoordination {
  /** Key builder of this adapter's namespace. */
  readonly keys: RedisKeys;
  /** The caller's shared client, which every part uses and which the scripts are registered on. */
  private readonly redis: RedisClient;

  /** @throws ValidationError when `namespace` would break the `{tw:<namespace>}` hash tag. */
  constructor(redis: RedisClient, namespace: string, scripts: ScriptLoader = (defaultScripts ??= new ScriptLoader())) {
    const keys = new RedisKeys(namespace);
    scripts.register(redis);
    const context = { redis, keys, scripts };
    super({
      lock: new RedisLock(context),
      nodeQueue: new RedisNodeQueue(context),
      delayQueue: new RedisDelayQueue(context),
      registry: new RedisNodeRegistry(context),
      semaphore: new RedisSemaphore(context),
      nonce: new RedisNonce(context),
      counter: new RedisCounter(context),
      signal: new RedisSignal(context),
    });
    this.keys = keys;
    this.redis = redis;
  }
}
