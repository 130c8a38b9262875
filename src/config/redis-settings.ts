import { ConfigError } from './config-error.js';

/** One `host:port` of REDIS_SENTINELS or REDIS_CLUSTER_NODES. */
export interface RedisHostPort {
  host: string;
  port: number;
}

/**
 * How the cluster shape reaches Redis (docs/deploy.md "Redis Sentinel and Cluster"): one server at a URL, the master
 * a Sentinel group names, or a Redis Cluster from its seed nodes. `password` is the data nodes' (REDIS_PASSWORD).
 */
export type RedisTopology =
  | { kind: 'single'; url: string }
  | {
      kind: 'sentinel';
      sentinels: RedisHostPort[];
      name: string;
      password?: string;
      sentinelPassword?: string;
    }
  | { kind: 'cluster'; nodes: RedisHostPort[]; password?: string };

/** The Redis settings as the env DTO holds them (already format-checked). */
export interface RedisEnv {
  REDIS_URL?: string;
  REDIS_SENTINELS?: string;
  REDIS_SENTINEL_NAME?: string;
  REDIS_SENTINEL_PASSWORD?: string;
  REDIS_CLUSTER_NODES?: string;
  REDIS_PASSWORD?: string;
}

/** Splits a checked `host:port,…` list; `[v6]` loses its brackets. @throws ConfigError on a port above 65535. */
function hostPorts(setting: string, raw: string): RedisHostPort[] {
  return raw.split(',').map((entry) => {
    const text = entry.trim();
    const at = text.lastIndexOf(':');
    const port = Number(text.slice(at + 1));
    if (!(port >= 1 && port <= 65535)) throw new ConfigError(setting, `port of '${text}' must be 1-65535`);
    return { host: text.slice(0, at).replace(/^\[(.*)\]$/, '$1'), port };
  });
}

/**
 * The Redis topology of the settings, or undefined when none is set (standalone). Exactly one of REDIS_URL,
 * REDIS_SENTINELS (with REDIS_SENTINEL_NAME) and REDIS_CLUSTER_NODES may be set; REDIS_PASSWORD and
 * REDIS_SENTINEL_PASSWORD only with the topology they serve (a URL carries its own password).
 * @throws ConfigError naming the contradicting setting.
 */
export function redisTopology(env: RedisEnv): RedisTopology | undefined {
  const set = (['REDIS_URL', 'REDIS_SENTINELS', 'REDIS_CLUSTER_NODES'] as const).filter((k) => env[k] !== undefined);
  if (set.length > 1)
    throw new ConfigError(set[1], `${set.join(' and ')} are set; set exactly one Redis topology (docs/deploy.md)`);
  if (env.REDIS_SENTINEL_NAME !== undefined && !env.REDIS_SENTINELS)
    throw new ConfigError('REDIS_SENTINEL_NAME', 'is set without REDIS_SENTINELS; set both or neither');
  if (env.REDIS_SENTINEL_PASSWORD !== undefined && !env.REDIS_SENTINELS)
    throw new ConfigError('REDIS_SENTINEL_PASSWORD', 'is set without REDIS_SENTINELS');
  if (env.REDIS_PASSWORD !== undefined && !env.REDIS_SENTINELS && !env.REDIS_CLUSTER_NODES)
    throw new ConfigError(
      'REDIS_PASSWORD',
      'serves REDIS_SENTINELS or REDIS_CLUSTER_NODES; put a password in REDIS_URL',
    );
  const password = env.REDIS_PASSWORD;
  if (env.REDIS_URL) return { kind: 'single', url: env.REDIS_URL };
  if (env.REDIS_SENTINELS) {
    if (!env.REDIS_SENTINEL_NAME)
      throw new ConfigError('REDIS_SENTINEL_NAME', 'is required with REDIS_SENTINELS: the master group name');
    const sentinels = hostPorts('REDIS_SENTINELS', env.REDIS_SENTINELS);
    const sentinelPassword = env.REDIS_SENTINEL_PASSWORD;
    return { kind: 'sentinel', sentinels, name: env.REDIS_SENTINEL_NAME, password, sentinelPassword };
  }
  if (env.REDIS_CLUSTER_NODES)
    return { kind: 'cluster', nodes: hostPorts('REDIS_CLUSTER_NODES', env.REDIS_CLUSTER_NODES), password };
  return undefined;
}
