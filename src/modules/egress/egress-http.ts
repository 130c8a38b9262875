import { type IncomingMessage, request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { EgressPolicy, type EgressRefusal, EgressRefusedError, urlPort } from './egress-policy.js';
import { type EgressResolver, type ResolvedAddress, systemResolver } from './egress-resolver.js';
import { canonicalIp } from './ip-address.js';

export interface EgressHttpRequest {
  /** Absolute http:// or https:// URL. */
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** Aborts the exchange (connection, redirects and the caller's body read). */
  signal: AbortSignal;
}

export interface EgressHttpOptions {
  policy: EgressPolicy;
  /** DNS (default: the system's), and redirects followed before the call fails ({@link DEFAULT_MAX_REDIRECTS}). */
  resolver?: EgressResolver;
  maxRedirects?: number;
  /** False: a redirect is returned as the answer, not followed (callbacks). Default true. */
  followRedirects?: boolean;
  /** Fails a hop whose connection (DNS, TCP, TLS) takes longer, ms (error code ETIMEDOUT). Default: none. */
  connectTimeoutMs?: number;
  /** Fails a hop whose answer's head comes later than this after connecting, ms (ETIMEDOUT). Default: none. */
  headTimeoutMs?: number;
}

/** The final answer (not a redirect, or one without Location), its URL and the redirects followed. */
export interface EgressHttpResponse {
  response: IncomingMessage;
  url: string;
  redirects: number;
}

export const DEFAULT_MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Dropped when a redirect leaves the origin (credentials meant for the first one). */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization', 'host'];
/** Dropped with the body when a redirect turns the request into a GET (Fetch: request-body-header names). */
const BODY_HEADERS = [
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'content-location',
  'transfer-encoding',
];

/**
 * Sends `req` through the egress `policy`, following redirects by hand (at most `maxRedirects`): every hop's
 * destination is checked before anything is sent to it, on the very address the socket connects to (the
 * lookup checks what DNS answers and hands only allowed addresses to the socket; an IP in the URL is checked
 * before connecting). 301/302/303 go on as GET without body (HEAD stays HEAD), 307/308 keep method and
 * body; a hop to another origin drops Authorization, Cookie, Proxy-Authorization and Host. No connection
 * is reused: a pooled socket would carry one caller's verdict into another's request.
 * @throws EgressRefusedError before any byte goes to a refused destination (first hop or later).
 * @throws Error on a network failure, a bad Location, a non-http(s) redirect, or more than `maxRedirects`
 *   redirects; the AbortError of `req.signal` when it fires.
 */
export async function egressHttp(req: EgressHttpRequest, opts: EgressHttpOptions): Promise<EgressHttpResponse> {
  const max = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  let url = new URL(req.url);
  let method = req.method;
  let headers = { ...req.headers };
  let body = req.body;
  for (let hop = 0; ; hop++) {
    const res = await sendOnce(
      url,
      method,
      headers,
      body,
      req.signal,
      opts.policy,
      opts.resolver ?? systemResolver,
      hop,
      opts,
    );
    const location = res.headers.location;
    if (!REDIRECTS.has(res.statusCode ?? 0) || location === undefined || opts.followRedirects === false)
      return { response: res, url: url.href, redirects: hop };
    res.destroy();
    if (hop >= max) throw new Error(`more than ${max} redirects`);
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new Error(`redirect ${hop + 1} has an invalid Location`);
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:')
      throw new Error(`redirect ${hop + 1} goes to ${next.protocol} (only http and https)`);
    if ([301, 302, 303].includes(res.statusCode ?? 0) && method !== 'HEAD') {
      method = 'GET';
      body = undefined;
      headers = without(headers, BODY_HEADERS);
    }
    if (next.origin !== url.origin) headers = without(headers, CREDENTIAL_HEADERS);
    url = next;
  }
}

function without(headers: Record<string, string>, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !names.includes(k.toLowerCase())));
}

/** The allowed answers of a lookup, in order. @throws EgressRefusedError (none allowed), ENOTFOUND (none). */
async function allowedAnswers(
  answers: ResolvedAddress[],
  hostname: string,
  port: number,
  policy: EgressPolicy,
  context: string,
): Promise<ResolvedAddress[]> {
  if (answers.length === 0) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  const verdicts = answers.map((a) => policy.check({ name: hostname, address: a.address, port }));
  const allowed = answers.filter((_a, i) => verdicts[i].allowed);
  const refusal = verdicts.find((v): v is EgressRefusal => !v.allowed);
  if (allowed.length === 0 && refusal) throw new EgressRefusedError(refusal, context);
  return allowed;
}

/** One request to `url`; resolves with the answer's head. */
function sendOnce(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  signal: AbortSignal,
  policy: EgressPolicy,
  resolver: EgressResolver,
  hop: number,
  timeouts: Pick<EgressHttpOptions, 'connectTimeoutMs' | 'headTimeoutMs'>,
): Promise<IncomingMessage> {
  const port = urlPort(url);
  const context = hop === 0 ? '' : `redirect ${hop} to ${url.origin}: `;
  const ip = canonicalIp(url.hostname);
  // An IP in the URL skips the lookup: judged here. A name is judged here by name, then per address in the lookup.
  const early = ip ? policy.check({ address: ip.address, port }) : policy.check({ name: url.hostname, port });
  if (!early.allowed) return Promise.reject(new EgressRefusedError(early, context));
  const lookup: LookupFunction = (hostname, options, callback) => {
    const family = options.family === 4 || options.family === 6 ? options.family : 0;
    resolver(hostname)
      .then((answers) =>
        allowedAnswers(
          answers.filter((a) => family === 0 || a.family === family),
          hostname,
          port,
          policy,
          context,
        ),
      )
      .then(
        (allowed) => (options.all ? callback(null, allowed) : callback(null, allowed[0].address, allowed[0].family)),
        (err: Error) => callback(err, ''),
      );
  };
  const options: RequestOptions = {
    protocol: url.protocol,
    hostname: ip ? ip.address : url.hostname,
    port,
    path: `${url.pathname}${url.search}`,
    method,
    headers,
    signal,
    agent: false,
    lookup,
  };
  return new Promise<IncomingMessage>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const arm = (ms: number | undefined, what: string) => {
      if (timer) clearTimeout(timer);
      timer = ms === undefined ? undefined : setTimeout(() => r.destroy(timedOut(`${what} after ${ms} ms`)), ms);
    };
    const r = (url.protocol === 'https:' ? httpsRequest : httpRequest)(options, (res) => {
      arm(undefined, '');
      resolve(res);
    });
    arm(timeouts.connectTimeoutMs, 'connect timed out');
    r.on('socket', (socket) =>
      socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () =>
        arm(timeouts.headTimeoutMs, 'no answer'),
      ),
    );
    r.on('error', (err) => {
      arm(undefined, '');
      reject(err); // `on`: an error after the answer (a destroyed hop, an abort) must not go unhandled
    });
    r.end(body);
  });
}

function timedOut(message: string): Error {
  return Object.assign(new Error(message), { code: 'ETIMEDOUT' });
}
