import type { NoncePort, TokenTake } from '../coordination.port.js';
import { checkBucketArgs, toTtl } from '../port-args.js';
import { RedisPart } from './redis-part.js';

/** {@link NoncePort} on Redis: SET NX PX nonce markers, and token buckets timed by Redis TIME (Lua). */
export class RedisNonce extends RedisPart implements NoncePort {
  async acceptNonce(appId: string, nonce: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(this.keys.nonce(appId, nonce), '1', 'PX', toTtl(ttlMs), 'NX')) === 'OK';
  }

  async takeTokens(key: string, ratePerSecond: number, burst: number, n: number): Promise<TokenTake> {
    checkBucketArgs(ratePerSecond, burst, n);
    const reply = await this.run('takeTokens', [this.keys.bucket(key)], [ratePerSecond, burst, n]);
    const [allowed, remaining, retryAfterMs, fullInMs] = reply as number[];
    return { allowed: allowed === 1, remaining, retryAfterMs, fullInMs };
  }
}
