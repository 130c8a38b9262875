import { randomUUID } from 'node:crypto';
import type { Middleware } from 'openapi-fetch';
import { SIGNATURE_HEADERS, signRequest } from '../common/index.js';

/** Who signs: the app id and its secret; `now` is the clock of X-Timestamp (epoch ms, default Date.now). */
export interface SigningCredentials {
  appId: string;
  secret: string;
  now?: () => number;
}

/** A request whose body was read once: every try sends (and signs) exactly these bytes. */
export interface PreparedRequest {
  url: URL;
  method: string;
  headers: Headers;
  body: Uint8Array | undefined;
  signal: AbortSignal | null;
}

/** Reads `request`'s body into bytes (consumes it); the method is upper-cased as it is signed. */
export async function prepareRequest(request: Request): Promise<PreparedRequest> {
  const bytes = new Uint8Array(await request.arrayBuffer());
  return {
    url: new URL(request.url),
    method: request.method.toUpperCase(),
    headers: new Headers(request.headers),
    body: bytes.byteLength > 0 ? bytes : undefined,
    signal: request.signal,
  };
}

/**
 * The four signature headers (v2, docs/api.md "Signing") of one try of `prepared`, with a fresh nonce and timestamp:
 * the path and query as the URL will send them, and the SHA-256 of the very bytes sent as the body.
 */
export function signatureHeaders(prepared: PreparedRequest, creds: SigningCredentials): Record<string, string> {
  const { appId, secret } = creds;
  const timestampMs = String((creds.now ?? Date.now)());
  const nonce = randomUUID();
  const { url, method, body } = prepared;
  const pathAndQuery = url.pathname + url.search;
  const signature = signRequest(secret, {
    appId,
    method,
    pathAndQuery,
    timestampMs,
    nonce,
    body: body ? Buffer.from(body.buffer, body.byteOffset, body.byteLength) : '',
  });
  return {
    [SIGNATURE_HEADERS.appId]: appId,
    [SIGNATURE_HEADERS.timestamp]: timestampMs,
    [SIGNATURE_HEADERS.nonce]: nonce,
    [SIGNATURE_HEADERS.signature]: signature,
  };
}

/** A new Request for one try of `prepared`, signed ({@link signatureHeaders}). */
export function signedRequest(prepared: PreparedRequest, creds: SigningCredentials): Request {
  const headers = new Headers(prepared.headers);
  for (const [name, value] of Object.entries(signatureHeaders(prepared, creds))) headers.set(name, value);
  const { url, method, body } = prepared;
  return new Request(url, { method, headers, body, signal: prepared.signal ?? undefined });
}

/**
 * An openapi-fetch middleware signing each request of a client made by openapi-fetch's `createClient` (register it
 * last, so nothing changes what was signed); no retries: each needs a new nonce, as `createTickwheelClient` does.
 */
export function signingMiddleware(creds: SigningCredentials): Middleware {
  return {
    async onRequest({ request }) {
      return signedRequest(await prepareRequest(request), creds);
    },
  };
}
