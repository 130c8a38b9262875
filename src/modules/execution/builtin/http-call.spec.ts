import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { never, rejection } from '../../../../test/utils/async.js';
import type { AddressInfo } from 'node:net';
import { ValidationError } from '../../../common/index.js';
import { EgressPolicy } from '../../egress/index.js';
import { runHttpCall } from './http-call.js';

/** The receivers here listen on loopback, which the default policy refuses: allowed explicitly. */
const OPTS = { policy: EgressPolicy.fromSettings({ allow: '127.0.0.1' }) };

type Route = (req: IncomingMessage, body: string, res: ServerResponse) => void;

/** A real HTTP server on 127.0.0.1, port 0; routes by path. */
const routes: Record<string, Route> = {
  '/echo': (req, body, res) => {
    const json = JSON.stringify({ method: req.method, headers: req.headers, body });
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(json),
      'x-extra': 'dropped',
    });
    res.end(json);
  },
  '/missing': (_req, _body, res) => {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('no such thing');
  },
  '/huge': (_req, _body, res) => {
    const total = 5 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 'a');
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(total) });
    let sent = 0;
    const pump = (): void => {
      while (sent < total) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  },
  '/utf8': (_req, _body, res) => {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('ab€€€'); // 'a','b' then 3-byte characters
  },
  '/hang': () => {
    // never answers
  },
};

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const route = routes[new URL(req.url ?? '/', 'http://x').pathname];
      if (route) route(req, Buffer.concat(chunks).toString('utf8'), res);
      else res.writeHead(500).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('runHttpCall', () => {
  it('should GET by default and return status, selected headers and the body', async () => {
    const r = await runHttpCall({ url: `${base}/echo` }, never(), OPTS);
    expect(r.status).toBe(200);
    expect(r.ok).toBe(true);
    expect(Object.keys(r.headers).sort()).toEqual(['content-length', 'content-type']);
    expect(r.headers['content-type']).toBe('application/json');
    expect(JSON.parse(r.bodyExcerpt).method).toBe('GET');
    expect(r.truncated).toBe(false);
    expect(r.bodyBytes).toBe(Buffer.byteLength(r.bodyExcerpt));
    expect(r.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('should POST an object body as JSON with content-type application/json', async () => {
    const r = await runHttpCall({ method: 'POST', url: `${base}/echo`, body: { a: 1, b: ['x'] } }, never(), OPTS);
    const echoed = JSON.parse(r.bodyExcerpt);
    expect(echoed.method).toBe('POST');
    expect(echoed.headers['content-type']).toBe('application/json');
    expect(JSON.parse(echoed.body)).toEqual({ a: 1, b: ['x'] });
  });

  it('should send a string body and the caller headers verbatim', async () => {
    const r = await runHttpCall(
      {
        method: 'PUT',
        url: `${base}/echo`,
        headers: { 'X-Token': 'abc', 'Content-Type': 'text/plain' },
        body: 'hello',
      },
      never(),
      OPTS,
    );
    const echoed = JSON.parse(r.bodyExcerpt);
    expect(echoed.method).toBe('PUT');
    expect(echoed.headers['x-token']).toBe('abc');
    expect(echoed.headers['content-type']).toBe('text/plain');
    expect(echoed.body).toBe('hello');
  });

  it('should return a non-2xx answer with ok=false instead of throwing', async () => {
    const r = await runHttpCall({ url: `${base}/missing`, method: 'DELETE' }, never(), OPTS);
    expect(r.status).toBe(404);
    expect(r.ok).toBe(false);
    expect(r.bodyExcerpt).toBe('no such thing');
  });

  it('should keep only the excerpt of a 5 MB body and count all its bytes', async () => {
    const r = await runHttpCall({ url: `${base}/huge` }, never(), OPTS);
    expect(r.bodyExcerpt).toBe('a'.repeat(4096));
    expect(r.bodyBytes).toBe(5 * 1024 * 1024);
    expect(r.truncated).toBe(true);
    expect(r.headers['content-length']).toBe(String(5 * 1024 * 1024));
  });

  it('should stop reading at maxReadBytes and honour maxExcerptBytes', async () => {
    const r = await runHttpCall({ url: `${base}/huge` }, never(), {
      ...OPTS,
      maxExcerptBytes: 10,
      maxReadBytes: 256 * 1024,
    });
    expect(r.bodyExcerpt).toBe('a'.repeat(10));
    expect(r.bodyBytes).toBeGreaterThanOrEqual(256 * 1024);
    expect(r.bodyBytes).toBeLessThan(5 * 1024 * 1024);
    expect(r.truncated).toBe(true);
  });

  it('should not cut a UTF-8 character in half', async () => {
    const r = await runHttpCall({ url: `${base}/utf8` }, never(), { ...OPTS, maxExcerptBytes: 4 });
    expect(r.bodyExcerpt).toBe('ab'); // '€' needs bytes 3..5: dropped, not U+FFFD
    expect(r.bodyBytes).toBe(11);
    expect(r.truncated).toBe(true);
  });

  it('should return no body for HEAD', async () => {
    const r = await runHttpCall({ method: 'HEAD', url: `${base}/echo` }, never(), OPTS);
    expect(r.status).toBe(200);
    expect(r.bodyExcerpt).toBe('');
    expect(r.bodyBytes).toBe(0);
    expect(r.truncated).toBe(false);
  });

  it('should throw TimeoutError when the server never answers', async () => {
    const t0 = Date.now();
    const e = await rejection(runHttpCall({ url: `${base}/hang`, timeoutMs: 300 }, never(), OPTS));
    expect(e.name).toBe('TimeoutError');
    expect(e.message).toMatch(/timed out after 300 ms/);
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it('should use defaultTimeoutMs when params have none', async () => {
    const e = await rejection(runHttpCall({ url: `${base}/hang` }, never(), { ...OPTS, defaultTimeoutMs: 200 }));
    expect(e.name).toBe('TimeoutError');
  });

  it('should throw AbortError when the caller aborts', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const t0 = Date.now();
    const e = await rejection(runHttpCall({ url: `${base}/hang`, timeoutMs: 10_000 }, ac.signal, OPTS));
    expect(e.name).toBe('AbortError');
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it('should throw AbortError at once when the signal is already aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    const e = await rejection(runHttpCall({ url: `${base}/echo` }, ac.signal, OPTS));
    expect(e.name).toBe('AbortError');
  });

  it('should throw a plain Error naming the target on a refused connection', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const e = await rejection(runHttpCall({ url: `http://127.0.0.1:${port}/x?secret=1` }, never(), OPTS));
    expect(e.name).toBe('Error');
    expect(e.message).toMatch(new RegExp(`GET http://127\\.0\\.0\\.1:${port}/x failed: ECONNREFUSED`));
    expect(e.message).not.toMatch(/secret/);
  });

  describe('params validation', () => {
    const cases: Array<[string, unknown, string]> = [
      ['not an object', 'http://x', 'params'],
      ['missing url', { method: 'GET' }, 'params.url'],
      ['url not a string', { url: 42 }, 'params.url'],
      ['unparsable url', { url: 'not a url' }, 'params.url'],
      ['ftp url', { url: 'ftp://example.com/file' }, 'params.url'],
      ['bad method', { url: 'http://x', method: 'TRACE' }, 'params.method'],
      ['lower-case method', { url: 'http://x', method: 'get' }, 'params.method'],
      ['negative timeout', { url: 'http://x', timeoutMs: -1 }, 'params.timeoutMs'],
      ['zero timeout', { url: 'http://x', timeoutMs: 0 }, 'params.timeoutMs'],
      ['timeout over 600000', { url: 'http://x', timeoutMs: 600_001 }, 'params.timeoutMs'],
      ['fractional timeout', { url: 'http://x', timeoutMs: 1.5 }, 'params.timeoutMs'],
      ['string timeout', { url: 'http://x', timeoutMs: '100' }, 'params.timeoutMs'],
      ['headers not an object', { url: 'http://x', headers: ['a'] }, 'params.headers'],
      ['header value not a string', { url: 'http://x', headers: { 'x-n': 1 } }, 'params.headers.x-n'],
      ['header value with CRLF', { url: 'http://x', headers: { 'x-n': 'a\r\nb: c' } }, 'params.headers.x-n'],
      ['bad header name', { url: 'http://x', headers: { 'a b': 'c' } }, 'params.headers.a b'],
      ['body with GET', { url: 'http://x', body: 'x' }, 'params.body'],
      ['numeric body', { url: 'http://x', method: 'POST', body: 5 }, 'params.body'],
      ['unknown field', { url: 'http://x', retries: 3 }, 'params.retries'],
    ];
    it.each(cases)('should reject %s with a ValidationError on the field', async (_name, params, field) => {
      const e = await rejection(runHttpCall(params, never(), OPTS));
      expect(e).toBeInstanceOf(ValidationError);
      expect((e as ValidationError).field).toBe(field);
    });
  });
});
