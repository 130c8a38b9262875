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

/** A whole answer: status, raw header pairs (name, value, name, value...) and the body decoded as UTF-8. */
export interface RawAnswer {
  status: number;
  rawHeaders: string[];
  text: string;
}

function timeoutError(ms: number): DOMException {
  return new DOMException(`no answer within ${ms} ms (tryTimeoutMs)`, 'TimeoutError');
}

/** A transport failure as fetch reports one: a TypeError whose `cause` holds the socket's error (its `code`). */
function networkError(method: string, target: HttpTarget, path: string, err: Error): Error {
  if (err instanceof DOMException) return err;
  return new TypeError(`${method} ${target.host}${path} failed: ${err.message}`, { cause: err });
}

/**
 * Sends one request and reads its whole answer. `body` is sent as is with its Content-Length; `timeoutMs` (0:
 * none) ends a try that has not been answered in full by then.
 * @throws TypeError (cause: the socket error, e.g. ECONNREFUSED) or a `TimeoutError` DOMException.
 */
export function sendOnce(
  target: HttpTarget,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<RawAnswer> {
  return new Promise<RawAnswer>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const fail = (err: Error) => {
      if (timer) clearTimeout(timer);
      reject(networkError(method, target, path, err));
    };
    const req = target.request(
      { agent: target.agent, host: target.host, port: target.port, method, path, headers },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('error', fail);
        res.on('end', () => {
          if (timer) clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, text });
        });
      },
    );
    req.on('error', fail);
    if (timeoutMs > 0) timer = setTimeout(() => req.destroy(timeoutError(timeoutMs)), timeoutMs);
    req.end(body || undefined);
  });
}

/** Headers of an answer, built from its raw pairs (the fetch `Headers` the client's callers read). */
export function headersOf(rawHeaders: string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) headers.append(rawHeaders[i], rawHeaders[i + 1]);
  return headers;
}
