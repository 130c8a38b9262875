export {
  MAIN_REDIS,
  duplicateClient,
  mainRedisClient,
  type RedisClient,
  redisConnections,
} from './redis-connection.js';
export { watchRedisErrors, type RedisErrorKind, type RedisErrorSink } from './redis-errors.js';
