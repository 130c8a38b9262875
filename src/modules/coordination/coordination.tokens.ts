/** Injection token of the whole {@link CoordinationPort} (one adapter instance per process). */
export const COORDINATION = Symbol('COORDINATION');
/** Per-concern tokens: each is bound to the same adapter instance as {@link COORDINATION}. */
export const LOCKS = Symbol('COORDINATION_LOCKS');
export const NODE_QUEUES = Symbol('COORDINATION_NODE_QUEUES');
export const DELAY_QUEUE = Symbol('COORDINATION_DELAY_QUEUE');
export const NODE_REGISTRY = Symbol('COORDINATION_NODE_REGISTRY');
export const SEMAPHORES = Symbol('COORDINATION_SEMAPHORES');
export const NONCES = Symbol('COORDINATION_NONCES');
export const COUNTERS = Symbol('COORDINATION_COUNTERS');
export const SIGNALS = Symbol('COORDINATION_SIGNALS');

/** Injection token of the shared ioredis client, nestjs-redis's `main` (cluster shape only; null standalone). */
export const REDIS_CLIENT = Symbol('REDIS_CLIENT');
