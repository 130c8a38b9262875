export { MAIN_REDIS, redisClientOptions, redisConnections, redisModuleOptions } from './redis-connection.js';
