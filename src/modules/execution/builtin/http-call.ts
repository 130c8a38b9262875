import { ValidationError } from '../../../common/index.js';

/** HTTP methods the built-in `http-call` handler accepts (exact, upper case). */
export const HTTP_CALL_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;
export type HttpCallMethod = (typeof HTTP_CALL_METHODS)[number];

/** Validated parameters of one HTTP call. */
export interface HttpCallParams {
  method: HttpCallMethod;
  url: string;
  headers: Record<string, string>;
  /** Already serialised; `undefined` when no body is sent. */
  body?: string;
  timeoutMs: number;
}

/** What one HTTP call produced. Non-2xx answers are results (ok=false), not errors. */
export interface HttpCallResult {
  status: number;
  ok: boolean;
  /** Only `content-type` and `content-length` (lower-case keys), when the server sent them. */
  headers: Record<string, string>;
  /** The first `maxExcerptBytes` bytes of the (decoded) body as UTF-8, never cut inside a character. */
  bodyExcerpt: string;
  /** Body bytes read. Counting stops at `maxReadBytes` (default 10 MiB): then it is a lower bound. */
  bodyBytes: number;
  /** True when `bodyExcerpt` is not the whole body. */
  truncated: boolean;
  /** Wall time from sending the request to the end of reading the body, milliseconds. */
  durationMs: number;
}

export interface HttpCallOptions {
  /** Bytes of body kept in `bodyExcerpt`; default 4096. */
  maxExcerptBytes?: number;
  /** Timeout when params carry no `timeoutMs`, milliseconds; default 30000. */
  defaultTimeoutMs?: number;
  /** Body bytes read (and counted) before the stream is cancelled; default 10 MiB. */
  maxReadBytes?: number;
}

export const HTTP_CALL_MAX_TIMEOUT_MS = 600_000;
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_EXCERPT_BYTES = 4096;
const DEFAULT_MAX_READ_BYTES = 10 * 1024 * 1024;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const KNOWN_KEYS = new Set(['method', 'url', 'headers', 'body', 'timeoutMs']);

/**
 * An Error named 'AbortError' (the caller's signal fired) or 'TimeoutError' (our own deadline passed).
 * Shared by the built-in handlers so the wrapper can tell cancel from timeout by `error.name`.
 */
export function abortError(kind: 'AbortError' | 'TimeoutError', message: string, cause?: unknown): Error {
  const err = new Error(message, cause === undefined ? undefined : { cause });
  err.name = kind;
  return err;
}

/**
 * Decodes `bytes` as UTF-8. With `cut` true the bytes are a prefix of something longer, so an
 * incomplete trailing character is dropped instead of becoming U+FFFD.
 */
export function decodeUtf8Prefix(bytes: Uint8Array, cut: boolean): string {
  return new TextDecoder('utf-8').decode(bytes, { stream: cut });
}

/** True for `{...}` literals and JSON-parsed objects (of any realm); false for arrays, null and class instances. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/**
 * Validates raw job params into {@link HttpCallParams}.
 * @throws ValidationError naming the field (`params.url`, `params.method`, ...) at fault.
 */
export function parseHttpCallParams(params: unknown, defaultTimeoutMs = DEFAULT_TIMEOUT_MS): HttpCallParams {
  if (!isPlainObject(params)) throw new ValidationError('params', 'must be an object');
  for (const k of Object.keys(params)) {
    if (!KNOWN_KEYS.has(k)) throw new ValidationError(`params.${k}`, `unknown field; allowed: ${[...KNOWN_KEYS].join(', ')}`);
  }

  const method = params.method ?? 'GET';
  if (typeof method !== 'string' || !(HTTP_CALL_METHODS as readonly string[]).includes(method)) {
    throw new ValidationError('params.method', `must be one of ${HTTP_CALL_METHODS.join(', ')}`);
  }

  if (typeof params.url !== 'string' || params.url === '') throw new ValidationError('params.url', 'is required (an http:// or https:// URL)');
  let url: URL;
  try {
    url = new URL(params.url);
  } catch {
    throw new ValidationError('params.url', 'is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ValidationError('params.url', `must use http or https, not ${url.protocol.replace(/:$/, '')}`);

  const headers: Record<string, string> = {};
  if (params.headers !== undefined) {
    if (!isPlainObject(params.headers)) throw new ValidationError('params.headers', 'must be an object of string values');
    for (const [name, value] of Object.entries(params.headers)) {
      if (!HEADER_NAME.test(name)) throw new ValidationError(`params.headers.${name}`, 'is not a valid header name');
      if (typeof value !== 'string') throw new ValidationError(`params.headers.${name}`, 'must be a string');
      if (/[\r\n\0]/.test(value)) throw new ValidationError(`params.headers.${name}`, 'must not contain CR, LF or NUL');
      headers[name] = value;
    }
  }

  let body: string | undefined;
  if (params.body !== undefined) {
    if (method === 'GET' || method === 'HEAD') throw new ValidationError('params.body', `is not allowed with ${method}`);
    if (typeof params.body === 'string') body = params.body;
    else if (typeof params.body === 'object' && params.body !== null) {
      body = JSON.stringify(params.body);
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    } else throw new ValidationError('params.body', 'must be a string or an object (sent as JSON)');
  }

  const timeoutMs = params.timeoutMs ?? defaultTimeoutMs;
  if (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > HTTP_CALL_MAX_TIMEOUT_MS) {
    throw new ValidationError('params.timeoutMs', `must be an integer from 1 to ${HTTP_CALL_MAX_TIMEOUT_MS} (milliseconds)`);
  }

  return { method: method as HttpCallMethod, url: url.href, headers, body, timeoutMs };
}

/** The URL without credentials, query or fragment, safe for error messages and logs. */
function redactUrl(href: string): string {
  const u = new URL(href);
  return `${u.origin}${u.pathname}`;
}

/**
 * Performs one HTTP request with Node's global fetch (redirects are followed; compressed bodies are
 * decoded, so byte counts are of the decoded body). The body is read as a stream: the first
 * `maxExcerptBytes` are kept, the rest is only counted, and reading stops (stream cancelled) after
 * `maxReadBytes` (default 10 MiB). The timeout covers the whole exchange, body included.
 *
 * @param params raw job params, validated by {@link parseHttpCallParams}.
 * @param signal the caller's signal (cancel, lost lease, shutdown).
 * @returns the status, selected headers and a body excerpt; a non-2xx status is returned with ok=false.
 * @throws ValidationError on bad params (before any request is sent).
 * @throws Error named 'AbortError' when `signal` fires, 'TimeoutError' when `timeoutMs` passes.
 * @throws Error (with `cause`) on a network failure: refused connection, DNS, TLS, reset.
 */
export async function runHttpCall(params: unknown, signal: AbortSignal, opts: HttpCallOptions = {}): Promise<HttpCallResult> {
  const p = parseHttpCallParams(params, opts.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS);
  const maxExcerpt = opts.maxExcerptBytes ?? DEFAULT_EXCERPT_BYTES;
  const maxRead = Math.max(opts.maxReadBytes ?? DEFAULT_MAX_READ_BYTES, maxExcerpt);
  const where = `${p.method} ${redactUrl(p.url)}`;
  if (signal.aborted) throw abortError('AbortError', `HTTP ${where} aborted before it started`, signal.reason);

  const timeout = AbortSignal.timeout(p.timeoutMs);
  const combined = AbortSignal.any([signal, timeout]);
  const started = performance.now();
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let done = false;
  try {
    const res = await fetch(p.url, { method: p.method, headers: p.headers, body: p.body, signal: combined, redirect: 'follow' });
    const headers: Record<string, string> = {};
    for (const h of ['content-type', 'content-length']) {
      const v = res.headers.get(h);
      if (v !== null) headers[h] = v;
    }

    const kept: Uint8Array[] = [];
    let keptBytes = 0;
    let bodyBytes = 0;
    let capped = false;
    if (res.body) {
      reader = res.body.getReader();
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        const bytes = chunk.value;
        bodyBytes += bytes.byteLength;
        if (keptBytes < maxExcerpt) {
          const take = bytes.subarray(0, maxExcerpt - keptBytes);
          kept.push(take);
          keptBytes += take.byteLength;
        }
        if (bodyBytes >= maxRead) {
          capped = true;
          break;
        }
      }
      if (capped) await reader.cancel().catch(() => undefined);
    }
    done = true;

    const truncated = capped || bodyBytes > keptBytes;
    return {
      status: res.status,
      ok: res.ok,
      headers,
      bodyExcerpt: decodeUtf8Prefix(Buffer.concat(kept, keptBytes), truncated),
      bodyBytes,
      truncated,
      durationMs: Math.round(performance.now() - started),
    };
  } catch (err) {
    if (signal.aborted) throw abortError('AbortError', `HTTP ${where} aborted by the caller`, signal.reason);
    if (timeout.aborted) throw abortError('TimeoutError', `HTTP ${where} timed out after ${p.timeoutMs} ms`, err);
    // fetch wraps network failures as TypeError('fetch failed') with the socket error as `cause`.
    // Duck-typed, not instanceof: undici's errors may come from another realm (vm contexts, Jest).
    const cause = ((err as { cause?: unknown }).cause ?? err) as { code?: unknown; name?: unknown; message?: unknown };
    const detail =
      typeof cause === 'object' && cause !== null && typeof cause.message === 'string'
        ? `${typeof cause.code === 'string' ? cause.code : String(cause.name)}: ${cause.message}`
        : String(cause);
    throw new Error(`HTTP ${where} failed: ${detail}`, { cause: err });
  } finally {
    if (reader && !done) await reader.cancel().catch(() => undefined);
  }
}
