import { randomUUID } from 'node:crypto';
import { prepareRequest, type PreparedRequest, signedRequest, type SigningCredentials } from './signing-middleware.js';

/**
 * How idempotent calls are tried again: `retries` tries after the first; the backoff starts at `baseDelayMs` and
 * doubles per try up to `maxDelayMs` (ms), the longest wait: a `Retry-After` beyond it returns the answer as is.
 */
export interface RetryPolicy {
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
}

/** Answers worth another try of an idempotent call: the rate limit and a gateway or node that was not there. */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'DELETE']);
const TASK_SUBMIT = /\/api\/tasks(\/batch)?$/;
const JOB_ROUTE = /\/api\/jobs(\/|$)/;

function parseJson(body: Uint8Array | undefined): unknown {
  try {
    return body ? JSON.parse(Buffer.from(body).toString('utf8')) : undefined;
  } catch {
    return undefined;
  }
}

const hasRequestId = (t: unknown) =>
  typeof t === 'object' && t !== null && typeof (t as { requestId?: unknown }).requestId === 'string';

/**
 * Whether sending `r` twice has the effect of sending it once: GET, HEAD, OPTIONS and DELETE; any request with
 * an `Idempotency-Key`; a task submit (single or batch) whose every task names its `requestId` (docs/api.md).
 */
export function isIdempotent(r: PreparedRequest): boolean {
  if (SAFE_METHODS.has(r.method) || r.headers.has('idempotency-key')) return true;
  const submit = r.method === 'POST' ? TASK_SUBMIT.exec(r.url.pathname) : null;
  if (!submit) return false;
  const body = parseJson(r.body) as { tasks?: unknown } | undefined;
  if (!submit[1]) return hasRequestId(body);
  return Array.isArray(body?.tasks) && body.tasks.length > 0 && body.tasks.every(hasRequestId);
}

/** Adds a random `Idempotency-Key` to a mutating /api/jobs call that has none (one key for all its tries). */
export function addJobIdempotencyKey(r: PreparedRequest): void {
  if (SAFE_METHODS.has(r.method) || r.headers.has('idempotency-key') || !JOB_ROUTE.test(r.url.pathname)) return;
  r.headers.set('idempotency-key', randomUUID());
}

/** `Retry-After` (delta seconds or an HTTP date) in ms from `nowMs`, or undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, nowMs: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** Backoff before try `attempt + 1`: base × 2^attempt capped at maxDelayMs, between half and all of it. */
export function backoffMs(attempt: number, p: RetryPolicy): number {
  const full = Math.min(p.maxDelayMs, p.baseDelayMs * 2 ** attempt);
  return Math.round(full / 2 + (p.random() * full) / 2);
}

/** What the typed client's fetch does: sign every try, and try an idempotent call again per `policy`. */
export interface SigningFetchOptions {
  creds: SigningCredentials;
  policy: RetryPolicy;
  fetch: (request: Request) => Promise<Response>;
  jobIdempotencyKeys: boolean;
}

/**
 * A fetch for openapi-fetch that signs each try anew (fresh nonce and timestamp, same body bytes) and tries an
 * idempotent call (`isIdempotent`) again after a network error or a `RETRY_STATUSES` answer, waiting its
 * `Retry-After` when it has one (at most `maxDelayMs`) or else the backoff. An aborted call is never tried again.
 */
export function signingFetch(o: SigningFetchOptions): (request: Request) => Promise<Response> {
  const { creds, policy } = o;
  return async (request) => {
    const prepared = await prepareRequest(request);
    if (o.jobIdempotencyKeys) addJobIdempotencyKey(prepared);
    const again = isIdempotent(prepared);
    for (let attempt = 0; ; attempt++) {
      const last = !again || attempt >= policy.retries;
      let response: Response;
      try {
        response = await o.fetch(signedRequest(prepared, creds));
      } catch (err) {
        if (last || prepared.signal?.aborted) throw err;
        await policy.sleep(backoffMs(attempt, policy));
        prepared.signal?.throwIfAborted();
        continue;
      }
      if (last || !RETRY_STATUSES.has(response.status)) return response;
      const after = retryAfterMs(response.headers.get('retry-after'), (creds.now ?? Date.now)());
      if (after !== undefined && after > policy.maxDelayMs) return response;
      await response.body?.cancel();
      await policy.sleep(after ?? backoffMs(attempt, policy));
      prepared.signal?.throwIfAborted();
    }
  };
}
