import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { RedisService } from '@liaoliaots/nestjs-redis';
import { type Redis } from 'ioredis';
import { CLOCK, type Clock } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { MAIN_REDIS, redisConnections } from '../../infra/redis/index.js';
import { COORDINATION, type CoordinationPort } from './coordination.port.js';
import { InProcessCoordinationAdapter } from './memory/in-process-coordination.adapter.js';
import { RedisCoordinationAdapter } from './redis/redis-coordination.adapter.js';

/** Injection token of the shared ioredis client, nestjs-redis's `main` (cluster shape only; null standalone). */
export const REDIS_CLIENT = Symbol('REDIS_CLIENT');

/**
 * Provides the {@link CoordinationPort} for the shape: Redis adapter when clustered, in-process adapter
 * standalone (DESIGN §1). Closes what it opened on shutdown, after every other module stopped using it.
 */
@Module({
  imports: [redisConnections()],
  providers: [
    {
      provide: REDIS_CLIENT,
      inject: [RedisService],
      useFactory: (connections: RedisService): Redis | null => connections.getOrNil(MAIN_REDIS),
    },
    {
      provide: COORDINATION,
      inject: [APP_CONFIG, CLOCK, REDIS_CLIENT],
      useFactory: (config: AppConfig, clock: Clock, redis: Redis | null): CoordinationPort =>
        redis ? new RedisCoordinationAdapter(redis, config.namespace) : new InProcessCoordinationAdapter(clock),
    },
  ],
  exports: [COORDINATION, REDIS_CLIENT],
})
export class CoordinationModule implements OnApplicationShutdown {
  constructor(
    @Inject(COORDINATION) private readonly port: CoordinationPort,
    @Inject(REDIS_CLIENT) private readonly redis: Redis | null,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.port.close();
    if (this.redis) await this.redis.quit().catch(() => this.redis?.disconnect());
  }
}
