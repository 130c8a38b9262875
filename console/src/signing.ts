/**
 * Request signing in the page with Web Crypto, as src/common/signing.ts does on the server (docs/api.md
 * "Signing", v2): X-Signature = "v2=" + hex HMAC-SHA256(secret, TW2\nAPP_ID\nMETHOD\nPATH?QUERY\nTIMESTAMP\nNONCE\n
 * hex SHA-256(body)). The secret is imported once as a non-extractable CryptoKey: from then on the page holds no
 * copy of its bytes, and nothing it sends carries them.
 */
const enc = new TextEncoder();

const hex = (buf: ArrayBuffer): string =>
  Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, '0')).join('');

/** An app's signing key: its id and the secret as a CryptoKey usable only to sign. */
export interface SigningKey {
  appId: string;
  key: CryptoKey;
}

/**
 * Imports `secret` for HMAC-SHA256 signing. @throws Error when Web Crypto is missing (crypto.subtle needs https,
 * http://localhost or http://127.0.0.1).
 */
export async function importSigningKey(appId: string, secret: string): Promise<SigningKey> {
  if (!globalThis.crypto?.subtle) throw new Error('This page cannot sign: Web Crypto needs https or http://localhost.');
  const key = await crypto.subtle.importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return { appId, key };
}

/** A copy of `request` with the four signature headers set; its body is read (and sent) as the same bytes. */
export async function signRequest(request: Request, signing: SigningKey): Promise<Request> {
  const body = new Uint8Array(await request.clone().arrayBuffer());
  const url = new URL(request.url);
  const timestamp = String(Date.now());
  const nonce = crypto.randomUUID();
  const bodyHash = hex(await crypto.subtle.digest('SHA-256', body));
  const method = request.method.toUpperCase();
  const canonical = ['TW2', signing.appId, method, url.pathname + url.search, timestamp, nonce, bodyHash].join('\n');
  const signature = hex(await crypto.subtle.sign('HMAC', signing.key, enc.encode(canonical)));
  const headers = new Headers(request.headers);
  headers.set('X-App-Id', signing.appId);
  headers.set('X-Timestamp', timestamp);
  headers.set('X-Nonce', nonce);
  headers.set('X-Signature', `v2=${signature}`);
  return new Request(request, { headers, body: body.byteLength > 0 ? body : undefined });
}
