import { classifyTry, retryWaitMs, type TryResult } from '../../callbacks/index.js';
import type { EmailResult } from '../channels/email-channel.js';

/** What one try of any channel came back with; `final`: cannot be sent as stored (no retry). */
export type ChannelResult = TryResult | EmailResult | { kind: 'final'; message: string };

/** The decision on a try: the delivery's next state, the wait before the next try (ms, for `retry`). */
export interface DeliveryOutcome {
  outcome: 'delivered' | 'retry' | 'failed';
  waitMs?: number;
  statusCode: number | null;
  error: string | null;
}

/**
 * Classifies try number `tries` (1-based, this try counted) at `now` (docs/notifications.md "Delivery"). HTTP
 * answers as a callback's (2xx delivered; 3xx, 4xx other than 408/429 and egress refusals final; the rest retried,
 * Retry-After honoured); SMTP: a 5xx reply is final, a 4xx, a timeout or a network error is retried. After the
 * last wait of `retryDelaysMs`, FAILED.
 */
export function classifyDelivery(
  result: ChannelResult,
  tries: number,
  retryDelaysMs: readonly number[],
  now: number,
): DeliveryOutcome {
  if (result.kind === 'final') return { outcome: 'failed', statusCode: null, error: result.message };
  if (result.kind === 'sent') return { outcome: 'delivered', statusCode: null, error: null };
  if (result.kind === 'smtp') {
    const error = result.code === null ? result.message : `SMTP ${result.code}: ${result.message}`;
    const wait = result.code !== null && result.code >= 500 ? null : retryWaitMs(tries, retryDelaysMs);
    if (wait === null) return { outcome: 'failed', statusCode: result.code, error };
    return { outcome: 'retry', waitMs: wait, statusCode: result.code, error };
  }
  const { host: _host, ...o } = classifyTry(result, tries, { retryDelaysMs: [...retryDelaysMs] }, now);
  return o;
}
