import type { CallbackSettings } from '../../../config/index.js';

/** What one try came back with: an answer's status (and its Retry-After), a failure, or an egress refusal. */
export type TryResult =
  | { kind: 'answer'; status: number; retryAfter?: string }
  | { kind: 'error'; message: string }
  | { kind: 'refused'; message: string };

/**
 * The decision on a try (docs/callbacks.md "Outcome of a try"): the delivery's next state, the wait before the
 * next try (ms, for `retry`), and what the try says of the host: `failure` (timeout, network error, 5xx),
 * `alive` (2xx, 4xx) or nothing (a refusal, a 3xx).
 */
export interface TryOutcome {
  outcome: 'delivered' | 'retry' | 'failed';
  waitMs?: number;
  host: 'failure' | 'alive' | null;
  statusCode: number | null;
  error: string | null;
}

/**
 * `Retry-After` as a wait in ms at `now` (epoch ms): delta-seconds or an HTTP date (past: 0), at most `maxMs`.
 * @returns null when absent or unreadable.
 */
export function retryAfterMs(value: string | undefined, now: number, maxMs: number): number | null {
  if (value === undefined) return null;
  const v = value.trim();
  let ms: number;
  if (/^\d{1,12}$/.test(v)) ms = Number(v) * 1000;
  else {
    const at = Date.parse(v);
    if (!/[a-z]/i.test(v) || Number.isNaN(at)) return null;
    ms = Math.max(0, at - now);
  }
  return Math.min(ms, maxMs);
}

/** The wait after try number `tries` (1-based) failed, or null when it was the last one. */
export function retryWaitMs(tries: number, delaysMs: readonly number[]): number | null {
  return tries >= 1 && tries <= delaysMs.length ? delaysMs[tries - 1] : null;
}

/**
 * Classifies try number `tries` (1-based, this try counted) at `now` (docs/callbacks.md "Outcome of a try").
 */
export function classifyTry(
  result: TryResult,
  tries: number,
  settings: Pick<CallbackSettings, 'retryDelaysMs'>,
  now: number,
): TryOutcome {
  if (result.kind === 'refused')
    return { outcome: 'failed', host: null, statusCode: null, error: `EGRESS_REFUSED: ${result.message}` };
  const status = result.kind === 'answer' ? result.status : null;
  if (status !== null && status >= 200 && status <= 299)
    return { outcome: 'delivered', host: 'alive', statusCode: status, error: null };
  const retryable = status === null || status === 408 || status === 429 || status >= 500;
  const host = status === null || status >= 500 ? 'failure' : status >= 400 ? 'alive' : null;
  const error = result.kind === 'error' ? result.message : `HTTP ${status}`;
  if (!retryable) return { outcome: 'failed', host, statusCode: status, error };
  let wait = retryWaitMs(tries, settings.retryDelaysMs);
  if (wait !== null && result.kind === 'answer' && (status === 429 || status === 503)) {
    const longest = Math.max(...settings.retryDelaysMs);
    wait = retryAfterMs(result.retryAfter, now, longest) ?? wait;
  }
  if (wait === null) return { outcome: 'failed', host, statusCode: status, error };
  return { outcome: 'retry', waitMs: wait, host, statusCode: status, error };
}
