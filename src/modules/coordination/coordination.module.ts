import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { ClusterService, RedisService } from '@liaoliaots/nestjs-redis';
import { CLOCK, type Clock } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import {
  mainRedisClient,
  type RedisClient,
  type RedisErrorKind,
  redisConnections,
  watchRedisErrors,
} from '../../infra/redis/index.js';
import { type LabelsMatch, MetricsService, type RedisErrorKindLabel } from '../observability/index.js';
import type { CoordinationPort } from './coordination.port.js';
import {
  COORDINATION,
  COUNTERS,
  DELAY_QUEUE,
  LOCKS,
  NODE_QUEUES,
  NODE_REGISTRY,
  NONCES,
  REDIS_CLIENT,
  SEMAPHORES,
  SIGNALS,
} from './coordination.tokens.js';
import { DelayFeed } from './delay-feed.js';
import { InProcessCoordinationAdapter } from './memory/in-process-coordination.adapter.js';
import { RedisCoordinationAdapter } from './redis/redis-coordination.adapter.js';

/** The per-concern tokens, each an alias of {@link COORDINATION} (one adapter instance behind all). */
const CONCERNS = [LOCKS, NODE_QUEUES, DELAY_QUEUE, NODE_REGISTRY, SEMAPHORES, NONCES, COUNTERS, SIGNALS];
const _kindLabels: LabelsMatch<RedisErrorKind, RedisErrorKindLabel> = true;

/**
 * Provides the {@link CoordinationPort} for the shape (docs/architecture.md): the Redis adapter when
 * clustered, the in-process one standalone, under {@link COORDINATION} and every per-concern token, and the
 * {@link DelayFeed}. Closes what it opened on shutdown, after every other module stopped using it.
 */
@Module({
  imports: [redisConnections()],
  providers: [
    {
      provide: REDIS_CLIENT,
      // Optional: a module test or a CLI may open Redis without the metrics (nothing to count there).
      inject: [RedisService, ClusterService, { token: MetricsService, optional: true }],
      useFactory: (redis: RedisService, cluster: ClusterService, metrics?: MetricsService): RedisClient | null => {
        const client = mainRedisClient(redis, cluster);
        if (client && metrics) watchRedisErrors(client, (kind) => metrics.redisErrors.inc({ kind }));
        return client;
      },
    },
    {
      provide: COORDINATION,
      inject: [APP_CONFIG, CLOCK, REDIS_CLIENT],
      useFactory: (config: AppConfig, clock: Clock, redis: RedisClient | null): CoordinationPort =>
        redis ? new RedisCoordinationAdapter(redis, config.namespace) : new InProcessCoordinationAdapter(clock),
    },
    ...CONCERNS.map((token) => ({ provide: token, useExisting: COORDINATION })),
    DelayFeed,
  ],
  exports: [COORDINATION, ...CONCERNS, REDIS_CLIENT, DelayFeed],
})
export class CoordinationModule implements OnApplicationShutdown {
  constructor(
    @Inject(COORDINATION) private readonly port: CoordinationPort,
    @Inject(REDIS_CLIENT) private readonly redis: RedisClient | null,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.port.close();
    if (!this.redis) return;
    await this.redis.quit().catch(() => undefined);
    this.redis.disconnect(); // after QUIT too: only this closes a Sentinel client's failover detector
  }
}
