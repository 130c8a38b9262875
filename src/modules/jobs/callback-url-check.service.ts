import { Inject, Injectable } from '@nestjs/common';
import { MAX_CALLBACK_URL_CHARS, ValidationError } from '../../common/index.js';
import { EGRESS_POLICY, EgressPolicy } from '../egress/index.js';
import { APP_LIMITS, type AppLimitsLookup } from './app-limits.js';

export interface CallbackUrlField {
  url: string;
  field: string;
}

/**
 * Judges callback URLs at submit and register without DNS (docs/callbacks.md "Where a callback goes"): ≤ 2,048
 * chars, absolute http(s), no user:password, host and port allowed by the egress policy narrowed to the app's
 * `egressAllow` (loopback, `localhost`, link-local, metadata, the cluster's services, EGRESS_DENY are refused).
 */
@Injectable()
export class CallbackUrlCheck {
  constructor(
    @Inject(EGRESS_POLICY) private readonly egress: EgressPolicy,
    @Inject(APP_LIMITS) private readonly apps: AppLimitsLookup,
  ) {}

  /** @throws ValidationError naming `field` and the reason when `url` is refused. */
  async assert(appId: string, url: string, field = 'callbackUrl'): Promise<void> {
    await this.assertAll(appId, [{ url, field }]);
  }

  /** {@link assert} for each of `urls` with one read of the app's allow-list. @throws at the first refused one. */
  async assertAll(appId: string, urls: readonly CallbackUrlField[]): Promise<void> {
    if (urls.length === 0) return;
    const policy = this.egress.narrowedTo((await this.apps.lookup(appId))?.egressAllow ?? null);
    for (const { url, field } of urls) checkCallbackUrl(policy, url, field);
  }
}

/** The rules of {@link CallbackUrlCheck} under `policy`. @throws ValidationError naming `field`. */
export function checkCallbackUrl(policy: EgressPolicy, url: unknown, field: string): void {
  const refuse = (why: string) => new ValidationError(field, `${field} ${why}`);
  if (typeof url !== 'string') throw refuse('must be a string');
  if (url.length > MAX_CALLBACK_URL_CHARS) throw refuse(`must be at most ${MAX_CALLBACK_URL_CHARS} characters`);
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw refuse('is not an absolute URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw refuse(`must be http: or https:, not ${u.protocol}`);
  if (u.username !== '' || u.password !== '') throw refuse('may not hold a user name or password');
  if (u.hostname === '') throw refuse('has no host');
  if (u.hostname.length > 253) throw refuse('has a host name over 253 characters (RFC 1035)');
  const verdict = policy.checkUrl(u);
  if (!verdict.allowed) throw refuse(`is refused by the egress policy: ${verdict.reason}`);
}
