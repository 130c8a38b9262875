import { DynamicModule, Logger } from '@nestjs/common';
import { RedisModule, type RedisClientOptions, type RedisModuleOptions } from '@liaoliaots/nestjs-redis';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';

/** Namespace of the one shared client in nestjs-redis's `RedisService` (coordination, its scripts, health). */
export const MAIN_REDIS = 'main';

/**
 * nestjs-redis's module (not global) with the shared client when REDIS_URL is set and none otherwise (standalone
 * needs no Redis). The client connects at once, queues commands (3 tries each) while connecting, retries an
 * unreachable Redis with backoff capped at 2 s instead of crashing (readiness reports it) and logs each new error
 * once. The module's own logs and closing are off: the coordination module quits the client after its duplicates.
 */
export function redisConnections(): DynamicModule {
  return RedisModule.forRootAsync(
    { inject: [APP_CONFIG], useFactory: (config: unknown) => moduleOptions(config as AppConfig) },
    false,
  );
}

function moduleOptions({ redisUrl, storageTimeoutMs }: AppConfig): RedisModuleOptions {
  const config = redisUrl ? [clientOptions(redisUrl, MAIN_REDIS, storageTimeoutMs)] : [];
  return { closeClient: false, readyLog: false, errorLog: false, config };
}

function clientOptions(url: string, name: string, timeoutMs: number): RedisClientOptions {
  const logger = new Logger(`Redis:${name}`);
  return {
    namespace: name,
    url,
    connectionName: `tickwheel:${name}`,
    maxRetriesPerRequest: 3,
    commandTimeout: timeoutMs,
    connectTimeout: timeoutMs,
    retryStrategy: (times) => Math.min(times * 200, 2000),
    onClientCreated: (client: Redis) => {
      let lastError = '';
      client.on('error', (err: Error) => {
        if (err.message !== lastError) logger.warn(`redis error: ${err.message}`);
        lastError = err.message;
      });
      client.on('ready', () => {
        lastError = '';
      });
    },
  };
}
