// A local http(s) server for the client specs (src/client): checks each request's v2 signature as the API does.
import { readFileSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { SIGNATURE_HEADERS, signRequest } from '../../src/common/index.js';

export const APP = { appId: 'app-1', secret: 's3cret' };
export const TLS = {
  key: readFileSync('test/fixtures/tls/localhost.key'),
  cert: readFileSync('test/fixtures/tls/localhost.crt'),
};

/** What the server saw of one request: its target (req.url), whether its signature holds for it, its socket. */
export interface Seen {
  url: string;
  method: string;
  valid: boolean;
  socket: number;
  headers: IncomingMessage['headers'];
}

/**
 * A local http (or https) server that checks each request's v2 signature against what it read (req.url, the
 * body) and answers `answer(n)` (n: the request's index), by default 202 with the request's body.
 */
export async function signedEchoServer(
  tls = false,
  answer: (n: number) => { status: number; headers?: Record<string, string> } | 'hang' = () => ({ status: 202 }),
) {
  const seen: Seen[] = [];
  let sockets = 0;
  const hung: ServerResponse[] = [];
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const h = (name: string) => String(req.headers[name]);
      const expected = signRequest(APP.secret, {
        ...{ appId: APP.appId, method: String(req.method), pathAndQuery: req.url ?? '', body },
        ...{ timestampMs: h(SIGNATURE_HEADERS.timestamp), nonce: h(SIGNATURE_HEADERS.nonce) },
      });
      const socket = (req.socket as unknown as { n: number }).n;
      const valid = h(SIGNATURE_HEADERS.signature) === expected;
      seen.push({ url: req.url ?? '', method: String(req.method), valid, socket, headers: req.headers });
      const a = answer(seen.length - 1);
      if (a === 'hang') return void hung.push(res);
      res.writeHead(a.status, { 'content-type': 'application/json', 'x-answer': String(seen.length), ...a.headers });
      res.end(body || '{}');
    });
  };
  const server = tls ? https.createServer(TLS, handle) : http.createServer(handle);
  server.on(tls ? 'secureConnection' : 'connection', (s: { n?: number }) => (s.n = ++sockets));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const close = async () => {
    for (const res of hung) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return { url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`, seen, close, sockets: () => sockets };
}

export type SignedEchoServer = Awaited<ReturnType<typeof signedEchoServer>>;
