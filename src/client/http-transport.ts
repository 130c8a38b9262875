import http from 'node:http';
import https from 'node:https';

/** An agent of node:http or node:https, as the base URL's scheme: it holds the keep-alive connections. */
export type ClientAgent = http.Agent | https.Agent;

const shared: { http?: http.Agent; https?: https.Agent } = {};

/**
 * The process-wide keep-alive agent of `protocol` (`http:` or `https:`) that clients use unless given their own:
 * connections are reused across calls and clients (LIFO, so the spare ones time out); an idle one does not keep the
 * process alive. @throws TypeError for another scheme.
 */
export function sharedAgent(protocol: string): ClientAgent {
  if (protocol === 'https:') return (shared.https ??= new https.Agent({ keepAlive: true, scheduling: 'lifo' }));
  if (protocol === 'http:') return (shared.http ??= new http.Agent({ keepAlive: true, scheduling: 'lifo' }));
  throw new TypeError(`baseUrl must be http: or https:, not ${protocol}`);
}

/** Where one client sends: the host and port of its base URL and the agent (the scheme's module picks it). */
export interface HttpTarget {
  request: typeof http.request;
  host: string;
  port: string | undefined;
  agent: ClientAgent;
}

/** The target of `base` (an absolute http(s) URL) through `agent` (default {@link sharedAgent}). */
export function httpTarget(base: URL, agent?: ClientAgent): HttpTarget {
  const host = base.hostname.startsWith('[') ? base.hostname.slice(1, -1) : base.hostname;
  return {
    request: base.protocol === 'https:' ? https.request : http.request,
    host,
    port: base.port || undefined,
    agent: agent ?? sharedAgent(base.protocol),
  };
}

/** A whole answer: status and its text, raw header pairs (name, value, name, value...) and the body's bytes. */
export interface RawAnswer {
  status: number;
  statusText: string;
  rawHeaders: string[];
  body: Buffer;
}

function timeoutError(ms: number): DOMException {
  return new DOMException(`no answer within ${ms} ms (tryTimeoutMs)`, 'TimeoutError');
}

/** A transport failure as fetch reports one: a TypeError whose `cause` holds the socket's error (its `code`). */
function networkError(method: string, target: HttpTarget, path: string, err: unknown): unknown {
  const e = err as { name?: unknown; message?: unknown } | null;
  if (typeof e?.message !== 'string' || e.name === 'TimeoutError' || e.name === 'AbortError') return err;
  return new TypeError(`${method} ${target.host}${path} failed: ${e.message}`, { cause: err });
}

/** One request of {@link sendOnce}: `body` is sent as is (give its Content-Length in `headers`). */
export interface OneRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  /** Ends a try not answered in full by then (ms; 0: never). */
  timeoutMs: number;
  signal?: AbortSignal | null;
}

/**
 * Sends one request and reads its whole answer; `signal`'s abort ends it with the signal's reason.
 * @throws TypeError (cause: the socket error, e.g. ECONNREFUSED), a `TimeoutError` DOMException, or the abort reason.
 */
export function sendOnce(target: HttpTarget, r: OneRequest): Promise<RawAnswer> {
  return new Promise<RawAnswer>((resolve, reject) => {
    const { signal } = r;
    if (signal?.aborted) return reject(signal.reason);
    let timer: NodeJS.Timeout | undefined;
    const onAbort = () => req.destroy(signal?.reason);
    const done = () => {
      if (timer) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const fail = (err: unknown) => {
      done();
      reject(signal?.aborted ? signal.reason : networkError(r.method, target, r.path, err));
    };
    const { method, path, headers } = r;
    const req = target.request({ agent: target.agent, host: target.host, port: target.port, method, path, headers });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', fail);
      res.on('end', () => {
        done();
        const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', rawHeaders: res.rawHeaders, body });
      });
    });
    req.on('error', fail);
    if (r.timeoutMs > 0) timer = setTimeout(() => req.destroy(timeoutError(r.timeoutMs)), r.timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    req.end(r.body);
  });
}

/** Headers of an answer, built from its raw pairs (the fetch `Headers` the client's callers read). */
export function headersOf(rawHeaders: string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) headers.append(rawHeaders[i], rawHeaders[i + 1]);
  return headers;
}

const NULL_BODY = new Set([101, 204, 205, 304]);

/** `answer` as a fetch Response (of `url`), for callers of a fetch such as openapi-fetch. */
export function toFetchResponse(answer: RawAnswer, url: URL): Response {
  const response = new Response(NULL_BODY.has(answer.status) ? null : answer.body, {
    status: answer.status,
    statusText: answer.statusText,
    headers: headersOf(answer.rawHeaders),
  });
  Object.defineProperty(response, 'url', { value: url.href });
  return response;
}
