import { createHmac } from 'node:crypto';
import { signaturesEqual } from './signing.js';

/** Header names of a callback delivery (docs/callbacks.md "What is sent"); Node lower-cases incoming names. */
export const CALLBACK_HEADERS = {
  deliveryId: 'x-tickwheel-delivery',
  timestamp: 'x-tickwheel-timestamp',
  signature: 'x-tickwheel-signature',
} as const;

/** How far a callback's timestamp may be from the receiver's clock by default (5 min, in ms). */
export const CALLBACK_TOLERANCE_MS = 300_000;

/** `X-Tickwheel-Signature`: `v1=<hex HMAC-SHA256(secret, "<timestamp ms>.<raw body>")>`. */
export function signCallback(secret: string, timestampMs: string, body: Buffer | string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestampMs}.`).update(body).digest('hex')}`;
}

/** The answer of {@link verifyCallback}: the delivery id to deduplicate on, or why the request is refused. */
export type CallbackVerdict = { ok: true; deliveryId: string; timestampMs: number } | { ok: false; reason: string };

/** Options of {@link verifyCallback}: clock skew allowed (ms) and the receiver's clock (epoch ms). */
export interface VerifyCallbackOptions {
  toleranceMs?: number;
  now?: number;
}

type HeaderBag = Record<string, string | string[] | undefined> | { get(name: string): string | null };

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function')
    return (headers as { get(n: string): string | null }).get(name) ?? undefined;
  const bag = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(bag).find((k) => k.toLowerCase() === name);
  const v = key === undefined ? undefined : bag[key];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Checks a received callback (docs/callbacks.md "Verifying"): signature (constant time) and timestamp within
 * `toleranceMs`. `headers`: Node's or a Fetch `Headers`; `rawBody`: the bytes as received. Never throws.
 */
export function verifyCallback(
  headers: HeaderBag,
  rawBody: Buffer | string,
  secret: string,
  options: VerifyCallbackOptions = {},
): CallbackVerdict {
  const deliveryId = header(headers, CALLBACK_HEADERS.deliveryId);
  const timestamp = header(headers, CALLBACK_HEADERS.timestamp);
  const signature = header(headers, CALLBACK_HEADERS.signature);
  if (!deliveryId || !timestamp || !signature) return { ok: false, reason: 'missing callback headers' };
  if (!/^\d{1,16}$/.test(timestamp)) return { ok: false, reason: 'bad timestamp' };
  const skew = Math.abs((options.now ?? Date.now()) - Number(timestamp));
  if (skew > (options.toleranceMs ?? CALLBACK_TOLERANCE_MS)) return { ok: false, reason: 'timestamp out of tolerance' };
  const given = /^v1=([0-9a-fA-F]{64})$/.exec(signature);
  if (!given) return { ok: false, reason: 'bad signature format' };
  const expected = signCallback(secret, timestamp, rawBody).slice(3);
  if (!signaturesEqual(expected, given[1])) return { ok: false, reason: 'signature mismatch' };
  // The header is not signed; the body is. A replay under a fresh X-Tickwheel-Delivery must not look new.
  if (signedDeliveryId(rawBody) !== deliveryId) return { ok: false, reason: 'delivery id differs from the body' };
  return { ok: true, deliveryId, timestampMs: Number(timestamp) };
}

/** The `deliveryId` of a callback body, or undefined when the body is not such JSON. */
function signedDeliveryId(rawBody: Buffer | string): string | undefined {
  try {
    const v = (JSON.parse(rawBody.toString()) as { deliveryId?: unknown }).deliveryId;
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}
