export { CoordinationModule } from './coordination.module.js';
export * from './coordination.tokens.js';
export * from './coordination.port.js';
export { DelayFeed } from './delay-feed.js';
export { InProcessCoordinationAdapter } from './memory/in-process-coordination.adapter.js';
export { RedisCoordinationAdapter } from './redis/redis-coordination.adapter.js';
export { RedisKeys } from './redis/redis-keys.js';
