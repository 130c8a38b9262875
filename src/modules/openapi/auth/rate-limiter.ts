import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { ErrorCode, SchedulerError } from '../../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import type { BucketTake, TokenTake } from '../../coordination/index.js';
import type { ResolvedClient } from './api-client.service.js';

/** One app's effective limit: tokens per second and bucket size. */
export interface RateLimit {
  perSecond: number;
  burst: number;
}

/**
 * Per-app request rate limits (README "Rate limits"): one token bucket per app in the coordination store, so in the
 * cluster an app has one bucket across every API node (Redis, timed by Redis TIME), standalone one in process. Each
 * /api request takes one token, after its signature was checked and in the same step (one Redis round trip,
 * NoncePort.admitRequest) as its nonce was spent: nobody can drain another app's bucket with unsigned or replayed
 * requests. This class says what to take ({@link bucketOf}) and answers the take ({@link answer}).
 *
 * Not @nestjs/throttler, although a well-kept library is preferred where one fits: it counts hits per
 * fixed window (up to twice the limit across a window's edge) instead of a token bucket with a burst; it
 * is a guard, so it would run after routing and beside the scope guard rather than where the caller is
 * authenticated; its Redis store is one more community package, and its headers are `X-RateLimit-*`. The
 * bucket here is Lua beside the other coordination scripts, contract-tested on both adapters.
 */
@Injectable()
export class RateLimiter {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /**
   * The limit of `client`: its own `rate_limit` / `rate_burst`, or the RATE_LIMIT_PER_SECOND /
   * RATE_LIMIT_BURST settings where they are null; null when unlimited (a rate of 0).
   */
  limitOf(client: ResolvedClient): RateLimit | null {
    const perSecond = client.rateLimit ?? this.config.rateLimitPerSecond;
    if (perSecond <= 0) return null;
    const burst = client.rateBurst !== null && client.rateBurst > 0 ? client.rateBurst : this.config.rateLimitBurst;
    return { perSecond, burst };
  }

  /** The one token a request of `client` takes from its bucket (for NoncePort.admitRequest); null when unlimited. */
  bucketOf(client: ResolvedClient): BucketTake | null {
    const limit = this.limitOf(client);
    return limit && { key: `app:${client.appId}`, ratePerSecond: limit.perSecond, burst: limit.burst, n: 1 };
  }

  /**
   * Answers the take of `bucket` ({@link bucketOf}): sets the RateLimit headers on `res`.
   * @throws SchedulerError(RATE_LIMITED) when the bucket was empty, after setting `Retry-After`.
   */
  answer(client: ResolvedClient, bucket: BucketTake, take: TokenTake, res: Response): void {
    const limit = { perSecond: bucket.ratePerSecond, burst: bucket.burst };
    setRateLimitHeaders(res, limit, take);
    if (take.allowed) return;
    const seconds = Math.max(1, Math.ceil(take.retryAfterMs / 1000));
    res.setHeader('Retry-After', String(seconds));
    throw new SchedulerError(
      ErrorCode.RATE_LIMITED,
      `app '${client.appId}' is over its rate limit (${limit.perSecond} requests/s, bursts of ${limit.burst}); ` +
        `retry after ${seconds} s (README "Rate limits")`,
    );
  }
}

/**
 * The RateLimit header fields of draft-ietf-httpapi-ratelimit-headers-06 (the separate `RateLimit-Limit`,
 * `-Remaining`, `-Reset` and `-Policy` fields, as most clients and proxies read them): the bucket size, the
 * whole tokens left, the seconds until the bucket is full again, and the policy as `<burst>;w=<seconds>`
 * (a full bucket's worth per the time it takes to refill it).
 */
function setRateLimitHeaders(res: Response, limit: RateLimit, take: TokenTake): void {
  res.setHeader('RateLimit-Limit', String(limit.burst));
  res.setHeader('RateLimit-Remaining', String(take.remaining));
  res.setHeader('RateLimit-Reset', String(Math.ceil(take.fullInMs / 1000)));
  res.setHeader('RateLimit-Policy', `${limit.burst};w=${Math.max(1, Math.ceil(limit.burst / limit.perSecond))}`);
}
