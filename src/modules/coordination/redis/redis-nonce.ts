import type { BucketTake, NoncePort, RequestAdmission, TokenTake } from '../coordination.port.js';
import { checkBucketArgs, toTtl } from '../port-args.js';
import { RedisPart } from './redis-part.js';

/** {@link NoncePort} on Redis: SET NX PX nonce markers, token buckets timed by Redis TIME (Lua), both in one. */
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

  async admitRequest(
    appId: string,
    nonce: string,
    ttlMs: number,
    bucket: BucketTake | null,
  ): Promise<RequestAdmission> {
    const ttl = toTtl(ttlMs);
    if (bucket) checkBucketArgs(bucket.ratePerSecond, bucket.burst, bucket.n);
    const keys = [this.keys.nonce(appId, nonce), this.keys.bucket(bucket?.key ?? '')];
    const args = bucket ? [ttl, bucket.ratePerSecond, bucket.burst, bucket.n] : [ttl, 0, 1, 1];
    const reply = (await this.run('admitRequest', keys, args)) as number[];
    const [accepted, allowed, remaining, retryAfterMs, fullInMs] = reply;
    const take = accepted === 1 && bucket ? { allowed: allowed === 1, remaining, retryAfterMs, fullInMs } : null;
    return { nonceAccepted: accepted === 1, take };
  }
}
