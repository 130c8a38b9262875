import { randomBytes } from 'node:crypto';
import { SIGNATURE_HEADERS, signRequest } from '../common/index.js';
import { type RetryOptions, retryPolicy, signingFetch } from './retry.js';

export {
  CALLBACK_HEADERS,
  type CallbackVerdict,
  signCallback,
  verifyCallback,
  type VerifyCallbackOptions,
} from '../common/index.js';

/** The JSON body of a callback delivery (docs/callbacks.md "What is sent"); times ISO-8601 UTC, durations ms. */
export interface CallbackPayload {
  deliveryId: string;
  requestId: string;
  jobCode: string | null;
  instanceId: string;
  status: 'SUCCESS' | 'FAILED' | 'TIMEOUT' | 'CANCELLED';
  result: unknown;
  error: string | null;
  attempts: number;
  durationMs: number | null;
  finishedAt: string;
}

/** Where and as whom the client calls; with `retries` (default 0) it retries as the typed client does. */
export interface TickwheelClientOptions extends RetryOptions {
  baseUrl: string;
  appId: string;
  secret: string;
  /** Clock for X-Timestamp (epoch ms); default Date.now. */
  now?: () => number;
}

/** An HTTP answer: status, headers and the parsed JSON body (or the text when not JSON). */
export interface TickwheelResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** One result of a batch submit: accepted (with `replayed`) or refused with a per-item problem. */
export type TaskBatchItem =
  | { requestId: string; status: string; estimatedDelay: number; replayed: boolean }
  | { requestId: string; error: { status: number; title: string; code: string; detail: string; field?: string } };

/** Signed HTTP client (v2, docs/api.md): fresh nonce per try, body sent as signed. @throws RangeError for bounds. */
export class TickwheelClient {
  private readonly retrying: ((request: Request) => Promise<Response>) | null;

  constructor(private readonly opts: TickwheelClientOptions) {
    const policy = retryPolicy(opts, 0);
    // One unbounded try needs no retrying fetch; a tryTimeoutMs bounds even a single try.
    this.retrying =
      policy.retries === 0 && policy.tryTimeoutMs === 0
        ? null
        : signingFetch({ creds: opts, policy, fetch: (r) => globalThis.fetch(r), jobIdempotencyKeys: false });
  }

  get baseUrl(): string {
    return this.opts.baseUrl;
  }

  /**
   * Signed request (path with query, signed as fetch sends it) plus `extraHeaders`, e.g. an Idempotency-Key.
   * @throws Error when `path` would leave the base URL's origin (`//host/...`): nothing is sent.
   */
  async request<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<TickwheelResponse<T>> {
    const payload = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
    const url = new URL(path, this.opts.baseUrl);
    if (url.origin !== new URL(this.opts.baseUrl).origin) {
      throw new Error(`path '${path}' leaves ${this.opts.baseUrl}: give a path such as /api/jobs`);
    }
    const headers: Record<string, string> = { ...extraHeaders };
    if (payload) headers['content-type'] = 'application/json';
    const res = this.retrying
      ? await this.retrying(new Request(url, { method, headers, body: payload || undefined }))
      : await fetch(url, {
          method,
          headers: { ...headers, ...this.sign(method, url.pathname + url.search, payload) },
          body: payload || undefined,
        });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, headers: res.headers, body: parsed as T };
  }

  /** The four signature headers for one request (exposed for callers with their own HTTP stack). */
  sign(method: string, pathAndQuery: string, body: string | Buffer): Record<string, string> {
    const timestampMs = String((this.opts.now ?? Date.now)());
    const nonce = randomBytes(16).toString('hex');
    const { appId, secret } = this.opts;
    return {
      [SIGNATURE_HEADERS.appId]: appId,
      [SIGNATURE_HEADERS.timestamp]: timestampMs,
      [SIGNATURE_HEADERS.nonce]: nonce,
      [SIGNATURE_HEADERS.signature]: signRequest(secret, { appId, method, pathAndQuery, timestampMs, nonce, body }),
    };
  }

  submitTask(task: Record<string, unknown>) {
    return this.request<{ requestId: string; status: string; estimatedDelay: number }>('POST', '/api/tasks', task);
  }

  /** POST /api/tasks/batch of 1..1000 tasks; `results[i]` answers `tasks[i]` (accepted or a 409 problem). */
  submitTasks(tasks: Array<Record<string, unknown>>) {
    return this.request<{ results: TaskBatchItem[] }>('POST', '/api/tasks/batch', { tasks });
  }

  getTask(requestId: string) {
    return this.request<Record<string, unknown>>('GET', `/api/tasks/${encodeURIComponent(requestId)}`);
  }

  /** POST /api/callbacks/register: the app's default callback URL, or the one of `handler`. */
  registerCallback(url: string, handler?: string) {
    return this.request<Record<string, unknown>>('POST', '/api/callbacks/register', { url, handler });
  }

  /** POST /api/tasks/{requestId}/callback/redeliver: sends the task's callback again from the start. */
  redeliverCallback(requestId: string) {
    return this.request<Record<string, unknown>>(
      'POST',
      `/api/tasks/${encodeURIComponent(requestId)}/callback/redeliver`,
    );
  }
}
