import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** Header names of a signed request (DESIGN §8). */
export const SIGNATURE_HEADERS = {
  appId: 'x-app-id',
  timestamp: 'x-timestamp',
  nonce: 'x-nonce',
  signature: 'x-signature',
} as const;

/**
 * The string a request signature covers (DESIGN §8):
 * `METHOD\nPATH?QUERY\nTIMESTAMP\nNONCE\nhex(SHA-256(body))`. METHOD is upper case; PATH?QUERY is the
 * request target exactly as sent (no re-encoding); TIMESTAMP is epoch ms; an empty body hashes "".
 */
export function canonicalRequest(method: string, pathAndQuery: string, timestampMs: string, nonce: string, body: Buffer | string): string {
  const bodyHash = createHash('sha256').update(body).digest('hex');
  return `${method.toUpperCase()}\n${pathAndQuery}\n${timestampMs}\n${nonce}\n${bodyHash}`;
}

/** hex HMAC-SHA256(secret, canonical request). */
export function signRequest(secret: string, method: string, pathAndQuery: string, timestampMs: string, nonce: string, body: Buffer | string): string {
  return createHmac('sha256', secret).update(canonicalRequest(method, pathAndQuery, timestampMs, nonce, body)).digest('hex');
}

/** Constant-time comparison of two hex signatures (false on any length or format mismatch). */
export function signaturesEqual(expectedHex: string, givenHex: string): boolean {
  if (!/^[0-9a-f]{64}$/i.test(givenHex)) return false;
  const a = Buffer.from(expectedHex, 'hex');
  const b = Buffer.from(givenHex.toLowerCase(), 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
