import { randomBytes } from 'node:crypto';
import { SIGNATURE_HEADERS, signRequest } from '../common/index.js';
import type { FinishBody, FinishedItem, LostLease, NodeSettings, WorkerAttempt } from '../modules/handler/index.js';

export type {
  FinishBody,
  FinishedItem,
  LostLease,
  NodeSettings,
  WorkerAttempt,
  WorkerOutcome,
} from '../modules/handler/index.js';

/** One `ctx.log` line as the logs route takes it (`at` epoch ms UTC). */
export interface WorkerLogLine {
  level: 'info' | 'warn' | 'error';
  message: string;
  at: number;
}

/** An answer of the api: status and parsed JSON body (null when empty, the text when not JSON). */
export interface ApiAnswer<T = unknown> {
  status: number;
  body: T;
}

/** An api answer the caller did not expect; `status` is the HTTP status, `detail` the problem's detail. */
export class WorkerApiError extends Error {
  constructor(
    readonly status: number,
    readonly route: string,
    readonly detail: string,
  ) {
    super(`${route} answered ${status}${detail ? `: ${detail}` : ''}`);
    this.name = 'WorkerApiError';
  }
}

/** How a call is tried again: `tries` in all (Infinity: until `signal` aborts); backoff doubling, ms. */
export interface RetryPlan {
  tries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  signal?: AbortSignal;
}

/** Statuses worth another try: the rate limit, an api or gateway not there, an api error. */
const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);
const ONCE: RetryPlan = { tries: 1, baseDelayMs: 0, maxDelayMs: 0 };

/**
 * The worker routes of docs/workers.md over signed HTTP (docs/api.md "Signing", v2): every try is signed anew
 * (fresh nonce and timestamp). A network error or a {@link RETRY_STATUSES} answer is tried again per the call's
 * {@link RetryPlan}; other answers are returned (the caller decides what a 404 or 409 means).
 */
export class WorkerApi {
  constructor(
    private readonly base: { url: string; appId: string; secret: string; fetch: typeof fetch },
    private readonly onRetry: (route: string, why: string, waitMs: number) => void = () => undefined,
  ) {}

  register(body: { handlers: string[]; capacity: number; host?: string }, plan: RetryPlan) {
    return this.call<NodeSettings>('POST', '/api/worker/nodes', body, plan);
  }

  heartbeat(nodeId: string, body: { active: number; draining?: boolean }, plan: RetryPlan = ONCE) {
    return this.call<null>('POST', `${node(nodeId)}/heartbeat`, body, plan);
  }

  /**
   * A long poll: waits up to `waitMs` on the api; `plan.signal` ends it early (what the api claimed meanwhile
   * stays the node's, taken back by its DELETE or expiry).
   */
  claims(nodeId: string, body: { max: number; waitMs: number }, plan: RetryPlan) {
    return this.call<{ items: WorkerAttempt[] }>('POST', `${node(nodeId)}/claims`, body, plan);
  }

  leases(nodeId: string, attempts: Array<{ instanceId: string; fencingToken: number }>, plan: RetryPlan = ONCE) {
    return this.call<{ leaseUntil: number; lost: LostLease[] }>('POST', `${node(nodeId)}/leases`, { attempts }, plan);
  }

  checkpoint(nodeId: string, instanceId: string, body: { fencingToken: number; state: unknown }, plan: RetryPlan) {
    return this.call<null>('POST', attempt(nodeId, instanceId, 'checkpoint'), body, plan);
  }

  progress(nodeId: string, instanceId: string, body: { fencingToken: number; fraction: number; note?: string }) {
    return this.call<null>('POST', attempt(nodeId, instanceId, 'progress'), body, ONCE);
  }

  logs(nodeId: string, instanceId: string, body: { fencingToken: number; lines: WorkerLogLine[] }, plan: RetryPlan) {
    return this.call<null>('POST', attempt(nodeId, instanceId, 'logs'), body, plan);
  }

  finish(nodeId: string, instanceId: string, body: FinishBody, plan: RetryPlan) {
    return this.call<{ status: string; final: boolean }>('POST', attempt(nodeId, instanceId, 'finish'), body, plan);
  }

  /** Several finishes of the node's attempts (≤ 100), answered per item in order. */
  finishes(nodeId: string, items: Array<FinishBody & { instanceId: string }>, plan: RetryPlan) {
    return this.call<{ items?: FinishedItem[] }>('POST', `${node(nodeId)}/finishes`, { items }, plan);
  }

  deregister(nodeId: string, plan: RetryPlan) {
    return this.call<null>('DELETE', node(nodeId), undefined, plan);
  }

  /**
   * One signed call, tried again per `plan`. @throws the last network error when every try failed that way, or
   * the abort reason when `plan.signal` aborts.
   */
  async call<T>(method: string, path: string, body: unknown, plan: RetryPlan): Promise<ApiAnswer<T>> {
    const payload = body === undefined ? '' : JSON.stringify(body);
    const url = new URL(path, this.base.url);
    const route = `${method} ${routeName(path)}`;
    for (let tryNo = 0; ; tryNo++) {
      plan.signal?.throwIfAborted();
      const last = tryNo + 1 >= plan.tries;
      let why: string;
      try {
        const res = await this.base.fetch(url, {
          method,
          headers: this.headers(method, url.pathname + url.search, payload),
          body: payload || undefined,
          signal: plan.signal,
        });
        const answer = { status: res.status, body: parse(await res.text()) as T };
        if (last || !RETRY_STATUSES.has(res.status)) return answer;
        why = `${res.status}`;
      } catch (err) {
        if (last || plan.signal?.aborted) throw err;
        why = (err as Error).message;
      }
      const wait = backoff(tryNo, plan);
      this.onRetry(route, why, wait);
      await sleep(wait, plan.signal);
    }
  }

  private headers(method: string, pathAndQuery: string, body: string): Record<string, string> {
    const { appId, secret } = this.base;
    const timestampMs = String(Date.now());
    const nonce = randomBytes(16).toString('hex');
    const signature = signRequest(secret, { appId, method, pathAndQuery, timestampMs, nonce, body });
    return {
      [SIGNATURE_HEADERS.appId]: appId,
      [SIGNATURE_HEADERS.timestamp]: timestampMs,
      [SIGNATURE_HEADERS.nonce]: nonce,
      [SIGNATURE_HEADERS.signature]: signature,
      ...(body ? { 'content-type': 'application/json' } : {}),
    };
  }
}

/** The problem+json `detail` (or title) of an answer's body, else its text. */
export function problemDetail(body: unknown): string {
  if (body && typeof body === 'object') {
    const p = body as { detail?: unknown; title?: unknown };
    return String(p.detail ?? p.title ?? JSON.stringify(body));
  }
  return body === null || body === undefined ? '' : String(body);
}

/** Backoff before try `tryNo + 1`: base × 2^tryNo capped at maxDelayMs, between half and all of it. */
export function backoff(tryNo: number, plan: Pick<RetryPlan, 'baseDelayMs' | 'maxDelayMs'>): number {
  const full = Math.min(plan.maxDelayMs, plan.baseDelayMs * 2 ** Math.min(tryNo, 30));
  return Math.round(full / 2 + (Math.random() * full) / 2);
}

/** Resolves after `ms`, or rejects with the abort reason as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const node = (nodeId: string) => `/api/worker/nodes/${encodeURIComponent(nodeId)}`;
const attempt = (nodeId: string, instanceId: string, what: string) =>
  `${node(nodeId)}/attempts/${encodeURIComponent(instanceId)}/${what}`;
/** A path with its ids replaced, for log lines. */
const routeName = (path: string) => path.replace(/\/(nodes|attempts)\/[^/]+/g, '/$1/{id}');

function parse(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
