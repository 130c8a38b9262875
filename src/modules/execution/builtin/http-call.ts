import { ValidationError } from '../../../common/index.js';
import {
  EgressPolicy,
  EgressRefusedError,
  type EgressResolver,
  egressHttp,
  readBoundedBody,
} from '../../egress/index.js';

/** HTTP methods the built-in `http-call` handler accepts (exact, upper case). */
export const HTTP_CALL_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;
export type HttpCallMethod = (typeof HTTP_CALL_METHODS)[number];

/** Validated parameters of one HTTP call (`body` serialised, absent when none is sent). */
export interface HttpCallParams {
  method: HttpCallMethod;
  url: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

/**
 * What one HTTP call produced; non-2xx answers are results (ok=false), not errors. `headers`: only content-type
 * and content-length. `bodyExcerpt`: the first `maxExcerptBytes` of the decoded body, never cut inside a
 * character; `bodyBytes` counts up to `maxReadBytes` (then a lower bound). `durationMs`: request to body end.
 */
export interface HttpCallResult {
  status: number;
  ok: boolean;
  headers: Record<string, string>;
  bodyExcerpt: string;
  bodyBytes: number;
  truncated: boolean;
  durationMs: number;
}

/**
 * `policy`: checked on every hop (the cluster's, narrowed to the app's list); `resolver`: DNS (default the
 * system's); defaults: 5 redirects, 4096 excerpt bytes, 30 s timeout, 10 MiB read before the stream is cancelled.
 */
export interface HttpCallOptions {
  policy: EgressPolicy;
  resolver?: EgressResolver;
  maxRedirects?: number;
  maxExcerptBytes?: number;
  defaultTimeoutMs?: number;
  maxReadBytes?: number;
}

export const HTTP_CALL_MAX_TIMEOUT_MS = 600_000;
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_EXCERPT_BYTES = 4096;
const DEFAULT_MAX_READ_BYTES = 10 * 1024 * 1024;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const KNOWN_KEYS = new Set(['method', 'url', 'headers', 'body', 'timeoutMs']);

/** An Error named 'AbortError' (the caller's signal) or 'TimeoutError' (our deadline), told apart by name. */
export function abortError(kind: 'AbortError' | 'TimeoutError', message: string, cause?: unknown): Error {
  const err = new Error(message, cause === undefined ? undefined : { cause });
  err.name = kind;
  return err;
}

/** Decodes `bytes` as UTF-8; with `cut` (a prefix) an incomplete trailing character is dropped, not U+FFFD. */
export function decodeUtf8Prefix(bytes: Uint8Array, cut: boolean): string {
  return new TextDecoder('utf-8').decode(bytes, { stream: cut });
}

/** True for `{...}` literals and JSON-parsed objects (of any realm); false for arrays, null and class instances. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/** Validates raw job params into {@link HttpCallParams}. @throws ValidationError naming the field at fault. */
export function parseHttpCallParams(params: unknown, defaultTimeoutMs = DEFAULT_TIMEOUT_MS): HttpCallParams {
  if (!isPlainObject(params)) throw new ValidationError('params', 'must be an object');
  for (const k of Object.keys(params)) {
    if (!KNOWN_KEYS.has(k)) {
      throw new ValidationError(`params.${k}`, `unknown field; allowed: ${[...KNOWN_KEYS].join(', ')}`);
    }
  }

  const method = params.method ?? 'GET';
  if (typeof method !== 'string' || !(HTTP_CALL_METHODS as readonly string[]).includes(method)) {
    throw new ValidationError('params.method', `must be one of ${HTTP_CALL_METHODS.join(', ')}`);
  }

  if (typeof params.url !== 'string' || params.url === '') {
    throw new ValidationError('params.url', 'is required (an http:// or https:// URL)');
  }
  let url: URL;
  try {
    url = new URL(params.url);
  } catch {
    throw new ValidationError('params.url', 'is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ValidationError('params.url', `must use http or https, not ${url.protocol.replace(/:$/, '')}`);
  }

  const headers: Record<string, string> = {};
  if (params.headers !== undefined) {
    if (!isPlainObject(params.headers)) {
      throw new ValidationError('params.headers', 'must be an object of string values');
    }
    for (const [name, value] of Object.entries(params.headers)) {
      if (!HEADER_NAME.test(name)) throw new ValidationError(`params.headers.${name}`, 'is not a valid header name');
      if (typeof value !== 'string') throw new ValidationError(`params.headers.${name}`, 'must be a string');
      if (/[\r\n\0]/.test(value)) throw new ValidationError(`params.headers.${name}`, 'must not contain CR, LF or NUL');
      headers[name] = value;
    }
  }

  let body: string | undefined;
  if (params.body !== undefined) {
    if (method === 'GET' || method === 'HEAD') {
      throw new ValidationError('params.body', `is not allowed with ${method}`);
    }
    if (typeof params.body === 'string') body = params.body;
    else if (typeof params.body === 'object' && params.body !== null) {
      body = JSON.stringify(params.body);
      const typed = Object.keys(headers).some((h) => h.toLowerCase() === 'content-type');
      if (!typed) headers['content-type'] = 'application/json';
    } else throw new ValidationError('params.body', 'must be a string or an object (sent as JSON)');
  }

  const timeoutMs = params.timeoutMs ?? defaultTimeoutMs;
  const max = HTTP_CALL_MAX_TIMEOUT_MS;
  if (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > max) {
    throw new ValidationError('params.timeoutMs', `must be an integer from 1 to ${max} (milliseconds)`);
  }

  return { method: method as HttpCallMethod, url: url.href, headers, body, timeoutMs };
}

/** The URL without credentials, query or fragment, safe for error messages and logs. */
function redactUrl(href: string): string {
  const u = new URL(href);
  return `${u.origin}${u.pathname}`;
}

/** Headers a bare request carries unless the params set them (as Node's fetch did). */
function withDefaultHeaders(p: HttpCallParams): Record<string, string> {
  const has = (name: string) => Object.keys(p.headers).some((h) => h.toLowerCase() === name);
  return {
    ...(has('accept') ? {} : { accept: '*/*' }),
    ...(has('accept-encoding') ? {} : { 'accept-encoding': 'gzip, deflate, br' }),
    ...(has('user-agent') ? {} : { 'user-agent': 'Tickwheel' }),
    ...(p.body === undefined || has('content-type') ? {} : { 'content-type': 'text/plain;charset=UTF-8' }),
    ...p.headers,
  };
}

/** `err` as `CODE: message` (`ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9`), or its message alone. */
function networkDetail(err: unknown): string {
  const cause = err as { code?: unknown; name?: unknown; message?: unknown };
  if (typeof cause !== 'object' || cause === null || typeof cause.message !== 'string') return String(cause);
  const kind = typeof cause.code === 'string' ? cause.code : cause.name === 'Error' ? '' : String(cause.name);
  return kind === '' ? cause.message : `${kind}: ${cause.message}`;
}

/**
 * Performs one HTTP call through the egress policy (each hop checked on the address it connects to; redirects
 * followed by hand). The body is decoded (gzip, deflate, br) as a stream: byte counts are of the decoded body.
 * The timeout covers every hop and the body. `signal`: the caller's (cancel, lost lease, shutdown).
 * @throws ValidationError on bad params (before any request is sent).
 * @throws EgressRefusedError when the policy refuses a hop's destination (nothing is sent to it).
 * @throws Error named 'AbortError' when `signal` fires, 'TimeoutError' when `timeoutMs` passes.
 * @throws Error (with `cause`) on a network failure (refused connection, DNS, TLS, reset) or a redirect problem.
 */
export async function runHttpCall(
  params: unknown,
  signal: AbortSignal,
  opts: HttpCallOptions,
): Promise<HttpCallResult> {
  const p = parseHttpCallParams(params, opts.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS);
  const maxExcerpt = opts.maxExcerptBytes ?? DEFAULT_EXCERPT_BYTES;
  const maxRead = Math.max(opts.maxReadBytes ?? DEFAULT_MAX_READ_BYTES, maxExcerpt);
  const where = `${p.method} ${redactUrl(p.url)}`;
  if (signal.aborted) throw abortError('AbortError', `HTTP ${where} aborted before it started`, signal.reason);

  const timeout = AbortSignal.timeout(p.timeoutMs);
  const combined = AbortSignal.any([signal, timeout]);
  const started = performance.now();
  try {
    const { response: res } = await egressHttp(
      { url: p.url, method: p.method, headers: withDefaultHeaders(p), body: p.body, signal: combined },
      { policy: opts.policy, resolver: opts.resolver, maxRedirects: opts.maxRedirects },
    );
    const headers: Record<string, string> = {};
    for (const h of ['content-type', 'content-length']) {
      const v = res.headers[h];
      if (typeof v === 'string') headers[h] = v;
    }
    const status = res.statusCode ?? 0;
    const decode = p.method !== 'HEAD' && status !== 204 && status !== 304;
    const body = await readBoundedBody(res, { maxExcerptBytes: maxExcerpt, maxReadBytes: maxRead, decode });
    const truncated = body.capped || body.bodyBytes > body.excerpt.byteLength;
    return {
      status,
      ok: status >= 200 && status <= 299,
      headers,
      bodyExcerpt: decodeUtf8Prefix(body.excerpt, truncated),
      bodyBytes: body.bodyBytes,
      truncated,
      durationMs: Math.round(performance.now() - started),
    };
  } catch (err) {
    if (signal.aborted) throw abortError('AbortError', `HTTP ${where} aborted by the caller`, signal.reason);
    if (timeout.aborted) throw abortError('TimeoutError', `HTTP ${where} timed out after ${p.timeoutMs} ms`, err);
    if (err instanceof EgressRefusedError) throw new EgressRefusedError(err.refusal, `HTTP ${where}: ${err.context}`);
    throw new Error(`HTTP ${where} failed: ${networkDetail(err)}`, { cause: err });
  }
}
