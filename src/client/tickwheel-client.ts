import { randomUUID } from 'node:crypto';
import { SIGNATURE_HEADERS, signRequest } from '../common/index.js';
import {
  type ClientAgent,
  headersOf,
  httpTarget,
  type HttpTarget,
  type RawAnswer,
  sendOnce,
} from './http-transport.js';
import {
  isSafeMethod,
  replayableSubmit,
  RETRY_STATUSES,
  type RetryOptions,
  type RetryPolicy,
  retryLoop,
  retryPolicy,
  SUBMIT_RETRY_STATUSES,
} from './retry.js';

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

/**
 * Where and as whom the client calls; with `retries` (default 0) it retries as the typed client does. `agent`: the
 * node:http (http: base URL) or node:https (https:) agent holding its keep-alive connections, e.g. one with a CA,
 * `maxSockets` or no keep-alive; default one shared by the process's clients ({@link sharedAgent}).
 */
export interface TickwheelClientOptions extends RetryOptions {
  baseUrl: string;
  appId: string;
  secret: string;
  /** Clock for X-Timestamp (epoch ms); default Date.now. */
  now?: () => number;
  agent?: ClientAgent;
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

const hasKey = (headers: Record<string, string>, name: string) =>
  Object.keys(headers).some((k) => k.toLowerCase() === name);

/** The answer of `raw`: its body parsed when JSON (else the text), its Headers built only when read. */
function toResponse<T>(raw: RawAnswer): TickwheelResponse<T> {
  const text = raw.body.toString('utf8');
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: keep the text */
  }
  let headers: Headers | undefined;
  return {
    status: raw.status,
    get headers() {
      return (headers ??= headersOf(raw.rawHeaders));
    },
    body: parsed as T,
  };
}

/**
 * Signed HTTP client (v2, docs/api.md) over node:http(s) with keep-alive connections: fresh nonce per try, body
 * sent as signed. @throws RangeError for bounds; TypeError for a baseUrl that is not an absolute http(s) URL.
 */
export class TickwheelClient {
  private readonly policy: RetryPolicy;
  private readonly base: URL;
  private readonly target: HttpTarget;

  constructor(private readonly opts: TickwheelClientOptions) {
    this.policy = retryPolicy(opts, 0);
    this.base = new URL(opts.baseUrl);
    this.target = httpTarget(this.base, opts.agent);
  }

  get baseUrl(): string {
    return this.opts.baseUrl;
  }

  /**
   * Signed request (path with query, signed as sent) plus `extraHeaders`, e.g. an Idempotency-Key. Network errors
   * reject with a TypeError whose `cause` is the socket's error; a try past `tryTimeoutMs` with a `TimeoutError`.
   * @throws Error when `path` would leave the base URL's origin (`//host/...`): nothing is sent.
   */
  async request<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<TickwheelResponse<T>> {
    const payload = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
    const url = new URL(path, this.base);
    if (url.origin !== this.base.origin) {
      throw new Error(`path '${path}' leaves ${this.opts.baseUrl}: give a path such as /api/jobs`);
    }
    const verb = method.toUpperCase();
    const target = url.pathname + url.search;
    const headers: Record<string, string> = { accept: '*/*', ...extraHeaders };
    if (payload) headers['content-type'] = 'application/json';
    if (payload || !isSafeMethod(verb)) headers['content-length'] = String(Buffer.byteLength(payload));
    const { policy } = this;
    const send = () => {
      const signed = { ...headers, ...this.sign(verb, target, payload) };
      const body = payload || undefined;
      return sendOnce(this.target, {
        method: verb,
        path: target,
        headers: signed,
        body,
        timeoutMs: policy.tryTimeoutMs,
      });
    };
    if (policy.retries === 0) return toResponse(await send());
    const replayable = replayableSubmit(verb, url.pathname, () => parseJson(payload));
    const raw = await retryLoop<RawAnswer>({
      policy,
      again: isSafeMethod(verb) || hasKey(extraHeaders, 'idempotency-key') || replayable,
      statuses: replayable ? SUBMIT_RETRY_STATUSES : RETRY_STATUSES,
      now: this.opts.now ?? Date.now,
      send,
      status: (a) => a.status,
      retryAfter: (a) => headerOf(a.rawHeaders, 'retry-after'),
      discard: () => undefined,
    });
    return toResponse(raw);
  }

  /** The four signature headers for one request (exposed for callers with their own HTTP stack). */
  sign(method: string, pathAndQuery: string, body: string | Buffer): Record<string, string> {
    const timestampMs = String((this.opts.now ?? Date.now)());
    const nonce = randomUUID();
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

/** The JSON `text` holds, or undefined when it is not JSON. */
function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** The first value of header `name` (lower case) among raw pairs, or null. */
function headerOf(rawHeaders: string[], name: string): string | null {
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) if (rawHeaders[i].toLowerCase() === name) return rawHeaders[i + 1];
  return null;
}
