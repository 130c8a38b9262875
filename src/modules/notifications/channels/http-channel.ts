import {
  CALLBACK_HEADERS,
  childContext,
  formatTraceparent,
  parseTraceparent,
  signCallback,
} from '../../../common/index.js';
import { egressHttp, EgressPolicy, EgressRefusedError, type EgressResolver } from '../../egress/index.js';
import type { TryResult } from '../../callbacks/index.js';

/** `X-Tickwheel-Event` of a notification webhook (a callback carries none). */
export const EVENT_HEADER = 'x-tickwheel-event';

/** One POST of a `webhook` or `chat` channel: where, what, signed with which secret (null: unsigned). */
export interface HttpPost {
  url: string;
  body: string;
  deliveryId: string;
  /** The app's secret: the webhook is signed like a callback; a chat body is not signed. */
  secret: string | null;
  now: number;
  /** The `traceparent` of the run the message is about (its newest event's), if any. */
  traceparent?: string | null;
}

/** The egress side of an HTTP channel: the app's policy, the resolver and the timeouts (ms). */
export interface HttpChannelOptions {
  policy: EgressPolicy;
  resolver: EgressResolver;
  connectTimeoutMs: number;
  readTimeoutMs: number;
}

/**
 * POSTs `p` as JSON through the egress-policy-checked client (docs/tenancy.md "Egress policy"; no redirects, a new
 * connection each time). A webhook carries the callback headers (X-Tickwheel-Delivery, -Timestamp, -Signature) and
 * `X-Tickwheel-Event: notification`; both kinds a `traceparent` (a new span of the run's trace) when the message is
 * about a run. @returns the answer's status, a network error or the egress refusal; rethrows only when `signal`
 * aborted it.
 */
export async function postChannel(p: HttpPost, o: HttpChannelOptions, signal: AbortSignal): Promise<TryResult> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (p.secret !== null) {
    const ts = String(p.now);
    headers[CALLBACK_HEADERS.deliveryId] = p.deliveryId;
    headers[CALLBACK_HEADERS.timestamp] = ts;
    headers[CALLBACK_HEADERS.signature] = signCallback(p.secret, ts, p.body);
    headers[EVENT_HEADER] = 'notification';
  }
  // A new span of the run's trace (W3C trace context), so the receiver's work joins it.
  const run = parseTraceparent(p.traceparent);
  if (run) headers.traceparent = formatTraceparent(childContext(run));
  try {
    const { response } = await egressHttp(
      { url: p.url, method: 'POST', headers, body: p.body, signal },
      {
        policy: o.policy,
        resolver: o.resolver,
        followRedirects: false,
        connectTimeoutMs: o.connectTimeoutMs,
        headTimeoutMs: o.readTimeoutMs,
      },
    );
    response.destroy();
    const ra = response.headers['retry-after'];
    return { kind: 'answer', status: response.statusCode ?? 0, retryAfter: typeof ra === 'string' ? ra : undefined };
  } catch (err) {
    if (signal.aborted) throw err;
    if (err instanceof EgressRefusedError) return { kind: 'refused', message: err.message };
    const code = (err as { code?: string }).code;
    return { kind: 'error', message: `${code ? `${code}: ` : ''}${(err as Error).message}` };
  }
}
