import type { Clock } from '../../../common/index.js';
import type { BucketTake, NoncePort, RequestAdmission, TokenTake } from '../coordination.port.js';
import { checkBucketArgs, toTtl } from '../port-args.js';
import { MIN_SWEEP, sweepWhenDoubled } from './maps.js';

/** A token bucket: tokens left (fractional) when last counted, and when it is full again (epoch ms). */
interface Bucket {
  tokens: number;
  at: number;
  fullAt: number;
}

/**
 * {@link NoncePort} in memory, timed by the injected Clock. Expired nonces and full buckets (the same as
 * none) are swept when their map has doubled since the last sweep.
 */
export class MemoryNonce implements NoncePort {
  /** Nonce key → expiry (epoch ms). */
  private readonly nonces = new Map<string, number>();
  private nextNonceSweep = MIN_SWEEP;
  private readonly buckets = new Map<string, Bucket>();
  private nextBucketSweep = MIN_SWEEP;

  constructor(private readonly clock: Clock) {}

  async acceptNonce(appId: string, nonce: string, ttlMs: number): Promise<boolean> {
    return this.spendNonce(appId, nonce, ttlMs);
  }

  async takeTokens(key: string, ratePerSecond: number, burst: number, n: number): Promise<TokenTake> {
    checkBucketArgs(ratePerSecond, burst, n);
    return this.take(key, ratePerSecond, burst, n);
  }

  /** acceptNonce, then takeTokens for a new nonce, in one synchronous step (as `admitRequest-2.lua`). */
  async admitRequest(
    appId: string,
    nonce: string,
    ttlMs: number,
    bucket: BucketTake | null,
  ): Promise<RequestAdmission> {
    if (bucket) checkBucketArgs(bucket.ratePerSecond, bucket.burst, bucket.n);
    if (!this.spendNonce(appId, nonce, ttlMs)) return { nonceAccepted: false, take: null };
    const take = bucket ? this.take(bucket.key, bucket.ratePerSecond, bucket.burst, bucket.n) : null;
    return { nonceAccepted: true, take };
  }

  private spendNonce(appId: string, nonce: string, ttlMs: number): boolean {
    const ttl = toTtl(ttlMs);
    const now = this.clock.now();
    const key = `${appId.length}:${appId}:${nonce}`;
    const expiresAt = this.nonces.get(key);
    if (expiresAt !== undefined && expiresAt > now) return false;
    this.nonces.set(key, now + ttl);
    this.nextNonceSweep = sweepWhenDoubled(this.nonces, this.nextNonceSweep, (until) => until <= now);
    return true;
  }

  /** The same arithmetic as `takeTokens-1.lua`. */
  private take(key: string, ratePerSecond: number, burst: number, n: number): TokenTake {
    const now = this.clock.now();
    const held = this.buckets.get(key);
    let tokens = held ? Math.min(burst, held.tokens + (Math.max(0, now - held.at) * ratePerSecond) / 1000) : burst;
    const allowed = tokens >= n;
    const retryAfterMs = allowed ? 0 : Math.ceil(((n - tokens) * 1000) / ratePerSecond);
    if (allowed) tokens -= n;
    const fullInMs = Math.ceil(((burst - tokens) * 1000) / ratePerSecond);
    this.buckets.set(key, { tokens, at: now, fullAt: now + fullInMs });
    this.nextBucketSweep = sweepWhenDoubled(this.buckets, this.nextBucketSweep, (b) => b.fullAt <= now);
    return { allowed, remaining: Math.floor(tokens), retryAfterMs, fullInMs };
  }
}
