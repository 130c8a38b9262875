export { MAIN_REDIS, redisConnections } from './redis-connection.js';
export { watchRedisErrors, type RedisErrorKind, type RedisErrorSink } from './redis-errors.js';
