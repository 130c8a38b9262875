import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { never, rejection } from '../../../../test/utils/async.js';
import { EgressPolicy, type EgressResolver } from '../../egress/index.js';
import { runHttpCall } from './http-call.js';

/**
 * runHttpCall through the egress policy (docs/tenancy.md "Egress policy"): what the handler may reach, redirects
 * followed by hand, and bodies decoded within the read cap now that Node's fetch no longer does it.
 */
const TEXT = 'héllo, decoded body';
const BOMB = gzipSync(Buffer.alloc(64 * 1024 * 1024)); // 64 MiB of zeros in ~64 KB
const encoded: Record<string, [string, Buffer]> = {
  '/gzip': ['gzip', gzipSync(TEXT)],
  '/deflate': ['deflate', deflateSync(TEXT)],
  '/deflate-raw': ['deflate', deflateRawSync(TEXT)],
  '/br': ['br', brotliCompressSync(TEXT)],
  '/gzip-br': ['gzip, br', brotliCompressSync(gzipSync(TEXT))],
  '/bomb': ['gzip', BOMB],
  '/unknown': ['zz-unknown', Buffer.from('raw bytes')],
};

let hits: Array<{ port: number; path: string; body: string }> = [];
const servers: Server[] = [];
let main: string;
let mainPort: number;
let victimPort: number;

function route(port: number, req: IncomingMessage, res: ServerResponse): void {
  const path = req.url ?? '/';
  const enc = encoded[path];
  if (enc) return void res.writeHead(200, { 'content-encoding': enc[0], 'content-type': 'text/plain' }).end(enc[1]);
  const hop = /^\/hop\/(\d+)$/.exec(path);
  if (hop) return void res.writeHead(302, { location: `/hop/${Number(hop[1]) + 1}` }).end();
  if (path === '/to-victim') return void res.writeHead(307, { location: `http://127.0.0.1:${victimPort}/steal` }).end();
  res.writeHead(200, { 'content-type': 'text/plain' }).end(`answered by ${port}`);
}

async function listen(host = '127.0.0.1', port = 0): Promise<number> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const own = (server.address() as AddressInfo).port;
      hits.push({ port: own, path: req.url ?? '', body: Buffer.concat(chunks).toString() });
      route(own, req, res);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(port, host, r));
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  mainPort = await listen();
  victimPort = await listen();
  await listen('127.0.0.2', victimPort); // stands for a public address, on the victim's port
  main = `http://127.0.0.1:${mainPort}`;
});

afterAll(async () => {
  await Promise.all(
    servers.map(
      (s) =>
        new Promise((r) => {
          s.closeAllConnections();
          s.close(r);
        }),
    ),
  );
});

beforeEach(() => (hits = []));

/** The main server's port allowed (loopback otherwise refused), as an operator's explicit EGRESS_ALLOW entry would. */
const onlyMain = () => ({ policy: EgressPolicy.fromSettings({ allow: `*,127.0.0.1:${mainPort}` }) });

describe('runHttpCall through the egress policy', () => {
  it.each(['127.0.0.1', '127.1', '2130706433', '0x7f000001', '[::ffff:127.0.0.1]', 'localhost'])(
    'should refuse http://%s under the default policy, sending nothing',
    async (host) => {
      const e = await rejection(
        runHttpCall({ url: `http://${host}:${victimPort}/x?secret=1`, method: 'POST', body: 'b' }, never(), {
          policy: EgressPolicy.fromSettings(),
        }),
      );
      expect(e.name).toBe('EgressRefusedError');
      expect(e.message).toMatch(
        new RegExp(
          `^HTTP POST http://.*:${victimPort}/x: egress refused: (127\\.0\\.0\\.1|localhost):${victimPort} is loopback \\(EGRESS_ALLOW to allow it\\)$`,
        ),
      );
      expect(hits).toEqual([]);
    },
  );

  it('should refuse a 307 into a refused address at that hop, without re-sending the body', async () => {
    const e = await rejection(
      runHttpCall({ url: `${main}/to-victim`, method: 'POST', body: 'secret-body' }, never(), onlyMain()),
    );
    expect(e.message).toBe(
      `HTTP POST ${main}/to-victim: redirect 1 to http://127.0.0.1:${victimPort}: egress refused: 127.0.0.1:${victimPort} is loopback (EGRESS_ALLOW to allow it)`,
    );
    expect(hits).toEqual([{ port: mainPort, path: '/to-victim', body: 'secret-body' }]);
  });

  it('should fail after 5 redirects', async () => {
    const e = await rejection(runHttpCall({ url: `${main}/hop/0` }, never(), onlyMain()));
    expect(e.message).toBe(`HTTP GET ${main}/hop/0 failed: more than 5 redirects`);
    expect(hits).toHaveLength(6);
  });

  it(
    'should connect to the address its lookup checked: a rebinding ' +
      'DNS cannot swap loopback in (injected resolver)',
    async () => {
      const answers = ['127.0.0.2', '127.0.0.1'];
      let calls = 0;
      const resolver: EgressResolver = async () => [{ address: answers[Math.min(calls++, 1)], family: 4 }];
      const policy = EgressPolicy.fromSettings({ allow: '127.0.0.2' });
      const first = await runHttpCall({ url: `http://rebind.test:${victimPort}/` }, never(), { policy, resolver });
      expect([first.bodyExcerpt, calls]).toEqual([`answered by ${victimPort}`, 1]);
      expect(hits.map((h) => h.port)).toEqual([victimPort]); // the server on 127.0.0.2
      const second = await rejection(
        runHttpCall({ url: `http://rebind.test:${victimPort}/` }, never(), { policy, resolver }),
      );
      expect(second.message).toMatch(/egress refused: 127\.0\.0\.1:\d+ \(rebind\.test\) is loopback/);
      expect(hits).toHaveLength(1);
    },
  );

  it.each(['/gzip', '/deflate', '/deflate-raw', '/br', '/gzip-br'])(
    'should decode a %s body and count its decoded bytes',
    async (path) => {
      const r = await runHttpCall({ url: `${main}${path}` }, never(), onlyMain());
      expect([r.bodyExcerpt, r.bodyBytes, r.truncated]).toEqual([TEXT, Buffer.byteLength(TEXT), false]);
    },
  );

  it('should keep a body of an unknown coding as it came', async () => {
    const r = await runHttpCall({ url: `${main}/unknown` }, never(), onlyMain());
    expect(r.bodyExcerpt).toBe('raw bytes');
  });

  it('should stop decoding a gzip bomb at the read cap', async () => {
    const r = await runHttpCall({ url: `${main}/bomb` }, never(), { ...onlyMain(), maxReadBytes: 1024 * 1024 });
    expect(r.truncated).toBe(true);
    expect(r.bodyBytes).toBeGreaterThanOrEqual(1024 * 1024);
    expect(r.bodyBytes).toBeLessThan(2 * 1024 * 1024);
    expect(r.bodyExcerpt).toBe('\0'.repeat(4096));
  });

  it('should stop a gzip bomb at 10 MiB by default', async () => {
    const r = await runHttpCall({ url: `${main}/bomb` }, never(), onlyMain());
    expect([r.truncated, r.bodyBytes >= 10 * 1024 * 1024, r.bodyBytes < 11 * 1024 * 1024]).toEqual([true, true, true]);
  });
});
