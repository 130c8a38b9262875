import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** Header names of a signed request (docs/api.md "Signing"). */
export const SIGNATURE_HEADERS = {
  appId: 'x-app-id',
  timestamp: 'x-timestamp',
  nonce: 'x-nonce',
  signature: 'x-signature',
} as const;

/** The signing scheme this server accepts; `X-Signature` reads `v2=<64 hex>`. */
export const SIGNATURE_VERSION = 'v2';

/** hex SHA-256 of a request body (an empty body hashes ""). */
export function bodySha256Hex(body: Buffer | string): string {
  return createHash('sha256').update(body).digest('hex');
}

/**
 * The string a v2 signature covers, app id and target exactly as sent (docs/api.md "Signing"):
 * `TW2\n<APP ID>\n<METHOD>\n<PATH?QUERY>\n<TIMESTAMP>\n<NONCE>\n<hex SHA-256(body)>`.
 */
export function canonicalRequest(
  appId: string,
  method: string,
  pathAndQuery: string,
  timestampMs: string,
  nonce: string,
  bodyHashHex: string,
): string {
  return `TW2\n${appId}\n${method.toUpperCase()}\n${pathAndQuery}\n${timestampMs}\n${nonce}\n${bodyHashHex}`;
}

export interface RequestToSign {
  appId: string;
  method: string;
  pathAndQuery: string;
  timestampMs: string;
  nonce: string;
  body: Buffer | string;
}

/** hex HMAC-SHA256(secret, canonical request) over an already hashed body. */
export function signatureHex(secret: string, r: Omit<RequestToSign, 'body'>, bodyHashHex: string): string {
  return createHmac('sha256', secret)
    .update(canonicalRequest(r.appId, r.method, r.pathAndQuery, r.timestampMs, r.nonce, bodyHashHex))
    .digest('hex');
}

/** The X-Signature value of a request: `v2=<hex HMAC-SHA256(secret, canonical request)>`. */
export function signRequest(secret: string, r: RequestToSign): string {
  return `${SIGNATURE_VERSION}=${signatureHex(secret, r, bodySha256Hex(r.body))}`;
}

/** What an X-Signature header holds: a v2 signature, a bare (v1, unversioned) one, or something else. */
export type ParsedSignature = { version: 'v2'; hex: string } | { version: 'v1' } | { version: 'unknown' };

/** Reads an X-Signature value: `v2=<64 hex>` (any hex case), a bare 64-hex v1 signature, or unknown. */
export function parseSignature(value: string): ParsedSignature {
  const v2 = /^v2=([0-9a-fA-F]{64})$/.exec(value);
  if (v2) return { version: 'v2', hex: v2[1].toLowerCase() };
  return /^[0-9a-fA-F]{64}$/.test(value) ? { version: 'v1' } : { version: 'unknown' };
}

/** Constant-time comparison of two hex signatures (false on any length or format mismatch). */
export function signaturesEqual(expectedHex: string, givenHex: string): boolean {
  if (!/^[0-9a-f]{64}$/i.test(givenHex)) return false;
  const a = Buffer.from(expectedHex, 'hex');
  const b = Buffer.from(givenHex.toLowerCase(), 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
