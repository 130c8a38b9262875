import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether a scrape's `Authorization` header carries METRICS_TOKEN (`Bearer <token>`, the scheme case-insensitive,
 * RFC 6750): always true without a token. Both sides are hashed first, so the comparison takes the same time
 * whatever the header's length or content.
 */
export function scrapeAllowed(token: string | null, authorization: string | string[] | undefined): boolean {
  if (token === null) return true;
  const header = Array.isArray(authorization) ? authorization[0] : authorization;
  const sent = /^bearer +(\S+)$/i.exec(header ?? '')?.[1] ?? '';
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(sent), digest(token)) && sent.length > 0;
}

/** The `WWW-Authenticate` challenge of a refused scrape (RFC 6750). */
export const METRICS_CHALLENGE = 'Bearer realm="metrics"';
