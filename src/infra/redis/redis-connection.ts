import { DynamicModule, Logger, Module } from '@nestjs/common';
import {
  type ClusterClientOptions,
  ClusterModule,
  type ClusterModuleOptions,
  ClusterService,
  RedisModule,
  type RedisClientOptions,
  type RedisModuleOptions,
  RedisService,
} from '@liaoliaots/nestjs-redis';
import type { Cluster, Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig, type RedisTopology } from '../../config/index.js';

/** Namespace of the one shared client in nestjs-redis's `RedisService` (coordination, its scripts, health). */
export const MAIN_REDIS = 'main';

/** A client of one server or Sentinel group (ioredis `Redis`) or of a Redis Cluster (ioredis `Cluster`). */
export type RedisClient = Redis | Cluster;

@Module({})
class RedisConnectionsModule {}

/**
 * nestjs-redis's modules (not global) with the shared client of the topology (config `redis`): RedisModule's for
 * one server (REDIS_URL) or a Sentinel group, ClusterModule's for a Redis Cluster, none standalone. The client
 * connects at once, queues commands (3 tries each) while connecting, retries an unreachable Redis with backoff
 * capped at 2 s instead of crashing (readiness reports it) and logs each new error once. The modules' own logs and
 * closing are off: the coordination module quits the client after its duplicates. {@link mainRedisClient} reads it.
 */
export function redisConnections(): DynamicModule {
  const redis = RedisModule.forRootAsync(
    { inject: [APP_CONFIG], useFactory: (config: unknown) => moduleOptions(config as AppConfig) },
    false,
  );
  const cluster = ClusterModule.forRootAsync(
    { inject: [APP_CONFIG], useFactory: (config: unknown) => clusterModuleOptions(config as AppConfig) },
    false,
  );
  return { module: RedisConnectionsModule, imports: [redis, cluster], exports: [RedisModule, ClusterModule] };
}

/** The shared client of {@link redisConnections}, or null standalone. */
export function mainRedisClient(redis: RedisService, cluster: ClusterService): RedisClient | null {
  return redis.getOrNil(MAIN_REDIS) ?? cluster.getOrNil(MAIN_REDIS);
}

/**
 * A new connection with `client`'s settings, named `<name>:<suffix>` (a subscriber, a blocking claim), with
 * `overrides` (e.g. `commandTimeout: undefined`); a Cluster client's copy is a Cluster client too.
 */
export function duplicateClient(client: RedisClient, suffix: string, overrides: { commandTimeout?: number } = {}) {
  if (client.isCluster) {
    const c = client as Cluster;
    const redisOptions = c.options.redisOptions ?? {};
    const connectionName = redisOptions.connectionName ? `${redisOptions.connectionName}:${suffix}` : undefined;
    return c.duplicate([], { redisOptions: { ...redisOptions, connectionName, ...overrides } });
  }
  const name = (client as Redis).options.connectionName;
  return (client as Redis).duplicate({ connectionName: name ? `${name}:${suffix}` : undefined, ...overrides });
}

function moduleOptions({ redis: topology, storageTimeoutMs }: AppConfig): RedisModuleOptions {
  const config = topology && topology.kind !== 'cluster' ? [clientOptions(topology, MAIN_REDIS, storageTimeoutMs)] : [];
  return { closeClient: false, readyLog: false, errorLog: false, config };
}

function clusterModuleOptions({ redis: topology, storageTimeoutMs }: AppConfig): ClusterModuleOptions {
  const config = topology?.kind === 'cluster' ? [clusterOptions(topology, MAIN_REDIS, storageTimeoutMs)] : [];
  return { closeClient: false, readyLog: false, errorLog: false, config };
}

/** Where a one-server or Sentinel client connects: the URL, or the master the sentinels name. */
function target(topology: OneServer): Partial<RedisClientOptions> {
  if (topology.kind === 'single') return { url: topology.url };
  const { sentinels, name, password, sentinelPassword } = topology;
  return { sentinels, name, password, sentinelPassword, failoverDetector: true }; // moves on +switch-master
}

type OneServer = Exclude<RedisTopology, { kind: 'cluster' }>;

/** Commands and connects are cut at `timeoutMs` (STORAGE_TIMEOUT_MS): an API answer is then a 503, not a hang. */
function clientOptions(topology: OneServer, name: string, timeoutMs: number): RedisClientOptions {
  return {
    namespace: name,
    ...target(topology),
    connectionName: `tickwheel:${name}`,
    maxRetriesPerRequest: 3,
    commandTimeout: timeoutMs,
    connectTimeout: timeoutMs,
    retryStrategy: (times) => Math.min(times * 200, 2000),
    onClientCreated: (client: Redis) => logErrorsOnce(client, name),
  };
}

/** A Cluster client: MOVED/ASK followed, slots re-read after a failover, the same backoff and error log. */
function clusterOptions(topology: Extract<RedisTopology, { kind: 'cluster' }>, name: string, timeoutMs: number) {
  const connectionName = `tickwheel:${name}`;
  const limits = { maxRetriesPerRequest: 3, commandTimeout: timeoutMs, connectTimeout: timeoutMs };
  const options: ClusterClientOptions = {
    namespace: name,
    nodes: topology.nodes,
    redisOptions: { password: topology.password, connectionName, ...limits },
    clusterRetryStrategy: (times) => Math.min(times * 200, 2000),
    onClientCreated: (client: Cluster) => logErrorsOnce(client, name),
  };
  return options;
}

function logErrorsOnce(client: RedisClient, name: string): void {
  const logger = new Logger(`Redis:${name}`);
  let lastError = '';
  client.on('error', (err: Error) => {
    if (err.message !== lastError) logger.warn(`redis error: ${err.message}`);
    lastError = err.message;
  });
  client.on('ready', () => {
    lastError = '';
  });
}
