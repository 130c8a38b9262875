import type { CounterPort } from '../coordination.port.js';
import { checkIncrement } from '../port-args.js';
import { RedisPart } from './redis-part.js';

/** {@link CounterPort} on Redis: INCRBY. */
export class RedisCounter extends RedisPart implements CounterPort {
  async increment(name: string, by = 1): Promise<number> {
    checkIncrement(by);
    return this.redis.incrby(this.keys.counter(name), by);
  }
}
