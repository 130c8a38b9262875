import { BackoffKind } from '../metadata/index.js';

/** Results larger than this (JSON characters) are stored as a truncated excerpt. */
export const MAX_RESULT_CHARS = 65_536;

/**
 * Delay before retry number `attempt` (1-based attempt that just failed), in ms: FIXED = base;
 * EXPONENTIAL = base * 2^(attempt-1), capped at 1 h, with ±20 % jitter so retries of a burst spread out.
 */
export function backoffDelayMs(baseMs: number, kind: BackoffKind, attempt: number, random = Math.random): number {
  if (kind !== BackoffKind.EXPONENTIAL) return baseMs;
  const raw = Math.min(3_600_000, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(raw * (0.8 + 0.4 * random()));
}

/** Keeps a handler result storable: undefined → null; over {@link MAX_RESULT_CHARS} → `{ truncated, excerpt }`. */
export function boundResult(result: unknown): unknown {
  if (result === undefined) return null;
  let json: string;
  try {
    json = JSON.stringify(result);
  } catch (err) {
    return { unserialisable: (err as Error).message };
  }
  if (json === undefined) return null;
  return json.length <= MAX_RESULT_CHARS ? result : { truncated: true, excerpt: json.slice(0, MAX_RESULT_CHARS) };
}
