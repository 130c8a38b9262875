import { DynamicModule, Logger } from '@nestjs/common';
import { RedisModule, type RedisClientOptions, type RedisModuleOptions } from '@liaoliaots/nestjs-redis';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';

/** Namespace of the one shared client in nestjs-redis's `RedisService` (coordination, scripts, health). */
export const MAIN_REDIS = 'main';

/**
 * ioredis options of the shared client `name` at `url`. Connects at once; commands queue while connecting
 * (at most 3 tries each); a client that cannot reach Redis retries with backoff capped at 2 s instead of
 * crashing (readiness reports it), and logs each distinct error once until it is ready again.
 */
export function redisClientOptions(url: string, name: string): RedisClientOptions {
  const logger = new Logger(`Redis:${name}`);
  return {
    namespace: name,
    url,
    connectionName: `tickwheel:${name}`,
    maxRetriesPerRequest: 3,
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

/**
 * nestjs-redis options for the settings: the shared client when `redisUrl` is set, no client at all otherwise
 * (standalone needs no Redis). The module's own logs are off (the client logs above), and so is its closing:
 * the coordination module quits the client after closing the connections it duplicated from it.
 */
export function redisModuleOptions(redisUrl: string | undefined): RedisModuleOptions {
  return {
    closeClient: false,
    readyLog: false,
    errorLog: false,
    config: redisUrl ? [redisClientOptions(redisUrl, MAIN_REDIS)] : [],
  };
}

/** nestjs-redis's module (not global) with the connections {@link redisModuleOptions} asks for. */
export function redisConnections(): DynamicModule {
  return RedisModule.forRootAsync(
    { inject: [APP_CONFIG], useFactory: (config: unknown) => redisModuleOptions((config as AppConfig).redisUrl) },
    false,
  );
}
