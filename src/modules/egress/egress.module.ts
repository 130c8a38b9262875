import { DynamicModule, Global, Logger, Module } from '@nestjs/common';
import { buildEgressPolicy, type EgressResolver, systemResolver } from './egress-resolver.js';

/** Token of the cluster's EgressPolicy, built at start from the settings and this host's addresses. */
export const EGRESS_POLICY = Symbol('EGRESS_POLICY');

/** Injection token of the {@link EgressResolver} outbound calls resolve names with (default: the system's). */
export const EGRESS_RESOLVER = Symbol('EGRESS_RESOLVER');

/**
 * Token of an {@link AppEgressAllow}: a client's `egressAllow`, which narrows the policy for that app's calls.
 * The default answers null (not narrowed); a provider of the token in the injecting module replaces it.
 */
export const APP_EGRESS_ALLOW = Symbol('APP_EGRESS_ALLOW');

/** The egress allow-list of app `appId` (entries as in EGRESS_ALLOW), or null when it has none. */
export type AppEgressAllow = (appId: string) => Promise<readonly string[] | null>;

/** The settings {@link EgressModule.forConfig} reads, by AppConfig's names (config imports egress, not back). */
export interface EgressConfig {
  egressAllow: readonly string[];
  egressDeny: readonly string[];
  database: { type: 'mysql'; url: string } | { type: 'better-sqlite3' };
  redis?: RedisReach;
}

type HostPort = { host: string; port: number };
/** How Redis is reached, as AppConfig's `redis` says (one URL, sentinels, cluster seed nodes). */
type RedisReach = { kind: 'single'; url: string } | { kind: 'sentinel'; sentinels: HostPort[] } | ClusterReach;
type ClusterReach = { kind: 'cluster'; nodes: HostPort[] };

/** The refusals of the cluster's own Redis: its URL, or every sentinel or seed node named in the settings. */
function redisServices(redis: RedisReach | undefined) {
  if (!redis) return [];
  if (redis.kind === 'single')
    return [{ label: "this cluster's Redis (REDIS_URL)", url: redis.url, defaultPort: 6379 }];
  const [setting, list] =
    redis.kind === 'sentinel' ? ['REDIS_SENTINELS', redis.sentinels] : ['REDIS_CLUSTER_NODES', redis.nodes];
  return list.map(({ host, port }) => ({
    label: `this cluster's Redis (${setting})`,
    url: `redis://${host.includes(':') ? `[${host}]` : host}:${port}`,
    defaultPort: port,
  }));
}

/** Provides the egress tokens to every module (global): the `http` handler enforces them, the API judges URLs. */
@Global()
@Module({})
export class EgressModule {
  static forConfig(config: EgressConfig): DynamicModule {
    const logger = new Logger('Egress');
    const services = [
      ...(config.database.type === 'mysql'
        ? [{ label: "this cluster's database (DB_URL)", url: config.database.url, defaultPort: 3306 }]
        : []),
      ...redisServices(config.redis),
    ];
    const noAppList: AppEgressAllow = async () => null;
    return {
      module: EgressModule,
      providers: [
        { provide: EGRESS_RESOLVER, useValue: systemResolver },
        {
          provide: EGRESS_POLICY,
          inject: [EGRESS_RESOLVER],
          useFactory: (resolver: EgressResolver) =>
            buildEgressPolicy(
              { allow: config.egressAllow, deny: config.egressDeny, services },
              { resolver, warn: (m) => logger.warn(m) },
            ),
        },
        { provide: APP_EGRESS_ALLOW, useValue: noAppList },
      ],
      exports: [EGRESS_POLICY, EGRESS_RESOLVER, APP_EGRESS_ALLOW],
    };
  }
}
