export { MAIN_REDIS, redisConnections } from './redis-connection.js';
