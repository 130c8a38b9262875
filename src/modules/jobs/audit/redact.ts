/** What replaces a redacted value in audit rows. */
export const REDACTED = '[redacted]';

/** Keys whose values are credentials whatever their spelling's case (headers, common param names). */
const SECRET_KEYS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'api_key',
  'apikey',
  'api-key',
]);
/** Key fragments that mark a credential anywhere in the name (`accessToken`, `DB_PASSWORD`, `client_secret`). */
const SECRET_PARTS = ['token', 'secret', 'password', 'passwd'];
/** Deepest level walked; anything below is replaced as a whole (params are bounded JSON, this is a backstop). */
const MAX_DEPTH = 32;

/** Whether a params key names a credential (README "Audit"). */
export function isSecretKey(key: string): boolean {
  const k = key.toLowerCase();
  return SECRET_KEYS.has(k) || SECRET_PARTS.some((p) => k.includes(p));
}

/**
 * A copy of JSON `value` with the value under every secret-looking key, at any depth, replaced by
 * {@link REDACTED}. Values are not inspected: a secret inside a string is not found.
 */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v, depth + 1));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[k] = isSecretKey(k) && v !== null && v !== undefined ? REDACTED : redactSecrets(v, depth + 1);
  }
  return out;
}
