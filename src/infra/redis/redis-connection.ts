import { Logger } from '@nestjs/common';
import { Redis } from 'ioredis';

/**
 * Opens the shared ioredis client for a redis:// URL. Commands queue while connecting; a client that
 * cannot reach Redis keeps retrying with capped backoff (readiness reports it) instead of crashing.
 *
 * Why not @liaoliaots/nestjs-redis: it is CommonJS and require()s @nestjs/common, which is ESM-only
 * since Nest 12. Node 20.19+ resolves that at run time, but Jest's module runtime on Node 20 cannot
 * (it needs Node >= 24.9), so no test could load the app. This function is all we used it for.
 */
export function openRedis(url: string, name: string): Redis {
  const logger = new Logger(`Redis:${name}`);
  const client = new Redis(url, {
    connectionName: `tickwheel:${name}`,
    maxRetriesPerRequest: 3,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  let lastError = '';
  client.on('error', (err: Error) => {
    if (err.message !== lastError) logger.warn(`redis error: ${err.message}`);
    lastError = err.message;
  });
  client.on('ready', () => {
    lastError = '';
  });
  return client;
}
