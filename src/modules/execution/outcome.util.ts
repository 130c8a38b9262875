import { BOUNDS, cutMark, cutText, MAX_ERROR_CHARS, MAX_RESULT_BYTES } from '../../common/index.js';
import { BackoffKind } from '../metadata/index.js';

// Bounded before written: one value over its column would fail a whole group's finishing transaction (strict mode).
export { MAX_ERROR_CHARS, MAX_RESULT_BYTES };

/**
 * Delay before retry number `attempt` (1-based attempt that just failed), in ms: FIXED = base;
 * EXPONENTIAL = base * 2^(attempt-1), capped at 1 h, with ±20 % jitter so retries of a burst spread out.
 */
export function backoffDelayMs(baseMs: number, kind: BackoffKind, attempt: number, random = Math.random): number {
  if (kind !== BackoffKind.EXPONENTIAL) return baseMs;
  const raw = Math.min(BOUNDS.retryBackoffMs.max, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(raw * (0.8 + 0.4 * random()));
}

/**
 * Keeps a handler result storable: undefined → null; a result whose JSON is over {@link MAX_RESULT_BYTES}
 * UTF-8 bytes → `{ truncated: true, excerpt }`: the longest prefix of that JSON, then its cut mark (cutMark), whose
 * wrapper still fits.
 */
export function boundResult(result: unknown): unknown {
  if (result === undefined) return null;
  let json: string;
  try {
    json = JSON.stringify(result);
  } catch (err) {
    return { unserialisable: boundError((err as Error).message) }; // a circular value's message quotes its keys
  }
  if (json === undefined) return null;
  if (Buffer.byteLength(json, 'utf8') <= MAX_RESULT_BYTES) return result;
  const excerptOf = (n: number) => `${json.slice(0, n)}${cutMark(json.length - n)}`;
  const wrapped = (n: number) => JSON.stringify({ truncated: true, excerpt: excerptOf(n) });
  const fits = (n: number) => Buffer.byteLength(wrapped(n), 'utf8') <= MAX_RESULT_BYTES;
  let lo = 0;
  let hi = Math.min(json.length, MAX_RESULT_BYTES);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  // Never end the excerpt on the first half of a surrogate pair.
  const cut = lo > 0 && /[\uD800-\uDBFF]/.test(json[lo - 1]) ? lo - 1 : lo;
  return { truncated: true, excerpt: excerptOf(cut) };
}

/** An error within {@link MAX_ERROR_CHARS} characters (fits a TEXT column), a cut marked ({@link cutText}). */
export function boundError(error: string): string {
  return cutText(error, MAX_ERROR_CHARS);
}
