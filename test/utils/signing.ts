import { createHmac, randomBytes } from 'node:crypto';
import { bodySha256Hex, SIGNATURE_HEADERS, signRequest } from '../../src/common/signing.js';

/** Who signs and the parts a forger may set: a timestamp (epoch ms, default now) and a nonce (default random). */
export interface Signer {
  appId: string;
  secret: string;
  timestampMs?: number | string;
  nonce?: string;
}

/** The four signature headers of `signer` with the signature `sign` makes of the timestamp and nonce. */
function headersOf(signer: Signer, sign: (timestampMs: string, nonce: string) => string): Record<string, string> {
  const timestampMs = String(signer.timestampMs ?? Date.now());
  const nonce = signer.nonce ?? randomBytes(16).toString('hex');
  return {
    [SIGNATURE_HEADERS.appId]: signer.appId,
    [SIGNATURE_HEADERS.timestamp]: timestampMs,
    [SIGNATURE_HEADERS.nonce]: nonce,
    [SIGNATURE_HEADERS.signature]: sign(timestampMs, nonce),
  };
}

/**
 * The four signature headers of `method pathAndQuery body` signed v2 as `signer` (docs/api.md "Signing"), for
 * requests the tests build by hand: forged, replayed, sent raw. The client signs its own requests.
 */
export function signatureHeaders(
  signer: Signer,
  method: string,
  pathAndQuery: string,
  body: string | Buffer = '',
): Record<string, string> {
  const { appId, secret } = signer;
  return headersOf(signer, (timestampMs, nonce) =>
    signRequest(secret, { appId, method, pathAndQuery, timestampMs, nonce, body }),
  );
}

/** The same headers signed the v1 way, over the method, target, timestamp, nonce and body but not the app id. */
export function v1SignatureHeaders(
  signer: Signer,
  method: string,
  pathAndQuery: string,
  body: string | Buffer = '',
): Record<string, string> {
  return headersOf(signer, (timestampMs, nonce) =>
    createHmac('sha256', signer.secret)
      .update(`${method}\n${pathAndQuery}\n${timestampMs}\n${nonce}\n${bodySha256Hex(body)}`)
      .digest('hex'),
  );
}
