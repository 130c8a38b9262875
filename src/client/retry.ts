import { randomUUID } from 'node:crypto';
import { type ClientAgent, httpTarget, sendOnce, toFetchResponse } from './http-transport.js';
import {
  prepareRequest,
  type PreparedRequest,
  signatureHeaders,
  signedRequest,
  type SigningCredentials,
} from './signing-middleware.js';

/**
 * How idempotent calls are tried again: `retries` tries after the first; the backoff starts at `baseDelayMs` and
 * doubles per try up to `maxDelayMs` (ms), the longest wait: a `Retry-After` beyond it returns the answer as is.
 */
export interface RetryPolicy {
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  tryTimeoutMs: number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
}

export interface RetryOptions {
  retries?: number;
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  tryTimeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function bounded(name: string, value: number | undefined, fallback: number, max: number): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v < 0 || v > max) throw new RangeError(`${name} must be an integer 0..${max}`);
  return v;
}

/** The client options' policy (bounds and defaults in docs/api.md "Typed client"). @throws RangeError for bounds. */
export function retryPolicy(o: RetryOptions, defaultRetries = 2): RetryPolicy {
  return {
    retries: bounded('retries', o.retries, defaultRetries, 10),
    baseDelayMs: bounded('retryBaseDelayMs', o.retryBaseDelayMs, 200, 60_000),
    maxDelayMs: bounded('retryMaxDelayMs', o.retryMaxDelayMs, 5_000, 600_000),
    tryTimeoutMs: bounded('tryTimeoutMs', o.tryTimeoutMs, 0, 600_000),
    sleep: o.sleep ?? wait,
    random: Math.random,
  };
}

/** Answers worth another try of an idempotent call: the rate limit and a gateway or node that was not there. */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** A replayable submit's ({@link isReplayableSubmit}) also a `500`: it may come after the task was stored. */
export const SUBMIT_RETRY_STATUSES: ReadonlySet<number> = new Set([...RETRY_STATUSES, 500]);

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
  return SAFE_METHODS.has(r.method) || r.headers.has('idempotency-key') || isReplayableSubmit(r);
}

/** `POST /api/tasks` with a `requestId`, or `/api/tasks/batch` whose every task has one: a retry is a replay. */
export function isReplayableSubmit(r: PreparedRequest): boolean {
  return replayableSubmit(r.method, r.url.pathname, () => parseJson(r.body));
}

/** {@link isReplayableSubmit} of an upper-case `method`, a URL's `pathname` and the JSON it sends (read if needed). */
export function replayableSubmit(method: string, pathname: string, json: () => unknown): boolean {
  const submit = method === 'POST' ? TASK_SUBMIT.exec(pathname) : null;
  if (!submit) return false;
  const body = json() as { tasks?: unknown } | undefined;
  if (!submit[1]) return hasRequestId(body);
  return Array.isArray(body?.tasks) && body.tasks.length > 0 && body.tasks.every(hasRequestId);
}

/** Whether `method` (upper case) is GET, HEAD, OPTIONS or DELETE: sending it twice is sending it once. */
export const isSafeMethod = (method: string): boolean => SAFE_METHODS.has(method);

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
  /** Sends each signed try; without it, node:http(s) through `agent` (default: the shared keep-alive one). */
  fetch?: (request: Request) => Promise<Response>;
  agent?: ClientAgent;
  jobIdempotencyKeys: boolean;
}

/** One signed try of `prepared` over node:http(s) (http-transport.ts), answered as a fetch Response. */
function sendOverHttp(p: PreparedRequest, creds: SigningCredentials, timeoutMs: number, agent?: ClientAgent) {
  const headers: Record<string, string> = { accept: '*/*' };
  p.headers.forEach((value, name) => (headers[name] = value));
  Object.assign(headers, signatureHeaders(p, creds));
  if (p.body || !isSafeMethod(p.method)) headers['content-length'] = String(p.body?.byteLength ?? 0);
  const { method, url, body, signal } = p;
  return sendOnce(httpTarget(url, agent), {
    method,
    path: url.pathname + url.search,
    headers,
    body,
    timeoutMs,
    signal,
  }).then((answer) => toFetchResponse(answer, url));
}

/** `prepared` with its signal bounded by `timeoutMs` (0: as it is), for one try. */
function oneTry(prepared: PreparedRequest, timeoutMs: number): PreparedRequest {
  if (timeoutMs === 0) return prepared;
  const timeout = AbortSignal.timeout(timeoutMs);
  return { ...prepared, signal: prepared.signal ? AbortSignal.any([prepared.signal, timeout]) : timeout };
}

/** One call's tries as {@link retryLoop} makes them: how to send one, and what an answer says. */
export interface RetryLoop<A> {
  policy: RetryPolicy;
  again: boolean;
  statuses: ReadonlySet<number>;
  signal?: AbortSignal | null;
  now: () => number;
  send: () => Promise<A>;
  status: (answer: A) => number;
  retryAfter: (answer: A) => string | null;
  discard: (answer: A) => unknown;
}

/**
 * Sends a call, and again when `again` after a network error (a try's timeout too) or a `statuses` answer, waiting
 * its `Retry-After` (at most `maxDelayMs`: beyond, that answer is returned) or else the backoff; at most
 * `policy.retries` more tries. A call whose `signal` aborted is never tried again.
 */
export async function retryLoop<A>(l: RetryLoop<A>): Promise<A> {
  const { policy, signal } = l;
  for (let attempt = 0; ; attempt++) {
    const last = !l.again || attempt >= policy.retries;
    let answer: A;
    try {
      answer = await l.send();
    } catch (err) {
      if (last || signal?.aborted) throw err;
      await policy.sleep(backoffMs(attempt, policy));
      signal?.throwIfAborted();
      continue;
    }
    if (last || !l.statuses.has(l.status(answer))) return answer;
    const after = retryAfterMs(l.retryAfter(answer), l.now());
    if (after !== undefined && after > policy.maxDelayMs) return answer;
    await l.discard(answer);
    await policy.sleep(after ?? backoffMs(attempt, policy));
    signal?.throwIfAborted();
  }
}

/**
 * A fetch for openapi-fetch that signs each try anew (fresh nonce and timestamp, same body bytes) and tries an
 * idempotent call (`isIdempotent`) again after a network error (a try's timeout too) or a `RETRY_STATUSES` answer
 * (`SUBMIT_RETRY_STATUSES` for a replayable submit), waiting its `Retry-After` (at most `maxDelayMs`) or else the
 * backoff. A call aborted by its caller is never tried again.
 */
export function signingFetch(o: SigningFetchOptions): (request: Request) => Promise<Response> {
  const { creds, policy } = o;
  return async (request) => {
    const prepared = await prepareRequest(request);
    if (o.jobIdempotencyKeys) addJobIdempotencyKey(prepared);
    return retryLoop<Response>({
      policy,
      again: isIdempotent(prepared),
      statuses: isReplayableSubmit(prepared) ? SUBMIT_RETRY_STATUSES : RETRY_STATUSES,
      signal: prepared.signal,
      now: creds.now ?? Date.now,
      send: o.fetch
        ? () => o.fetch!(signedRequest(oneTry(prepared, policy.tryTimeoutMs), creds))
        : () => sendOverHttp(prepared, creds, policy.tryTimeoutMs, o.agent),
      status: (r) => r.status,
      retryAfter: (r) => r.headers.get('retry-after'),
      discard: (r) => r.body?.cancel(),
    });
  };
}
