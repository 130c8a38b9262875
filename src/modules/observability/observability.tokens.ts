/** The Redis client health checks ping; the app module binds it to coordination's client (null standalone). */
export const REDIS_TOKEN = Symbol('OBSERVABILITY_REDIS');
