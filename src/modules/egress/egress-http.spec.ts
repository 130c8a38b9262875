import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { never, rejection } from '../../../test/utils/async.js';
import { EgressPolicy, EgressRefusedError } from './egress-policy.js';
import { egressHttp } from './egress-http.js';
import type { EgressResolver } from './egress-resolver.js';

/** What one test server received. */
interface Hit {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface TestServer {
  url: string;
  port: number;
  hits: Hit[];
  close(): Promise<void>;
}

const servers: TestServer[] = [];

/** A real HTTP server on `host` (port 0 unless given) answering by `route`; records every request. */
async function serve(
  route: (req: IncomingMessage, res: ServerResponse) => void,
  host = '127.0.0.1',
  port = 0,
): Promise<TestServer> {
  const hits: Hit[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hits.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      route(req, res);
    });
  });
  await new Promise<void>((r) => server.listen(port, host, r));
  const bound = (server.address() as AddressInfo).port;
  const s = {
    url: `http://${host}:${bound}`,
    port: bound,
    hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  servers.push(s);
  return s;
}

const redirect = (status: number, location: string) => (_req: IncomingMessage, res: ServerResponse) =>
  res.writeHead(status, { location }).end();
const ok = (_req: IncomingMessage, res: ServerResponse) =>
  res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
const allowing = (allow: string) => EgressPolicy.fromSettings({ allow });
const post = (url: string, headers: Record<string, string> = {}) => ({
  url,
  method: 'POST',
  headers: { 'content-type': 'text/plain', ...headers },
  body: 'secret-body',
  signal: never(),
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('egressHttp', () => {
  it('should return a redirect as the answer when followRedirects is false (callbacks)', async () => {
    const target = await serve(ok);
    const start = await serve(redirect(307, target.url));
    const { response, redirects } = await egressHttp(post(start.url), {
      policy: allowing('127.0.0.1'),
      followRedirects: false,
    });
    response.destroy();
    expect([response.statusCode, redirects, target.hits.length]).toEqual([307, 0, 0]);
  });

  it('should fail with ETIMEDOUT when the answer head is later than headTimeoutMs', async () => {
    const silent = await serve(() => undefined);
    const err = await rejection(
      egressHttp(post(silent.url), { policy: allowing('127.0.0.1'), connectTimeoutMs: 1000, headTimeoutMs: 100 }),
    );
    expect([(err as { code?: string }).code, err.message]).toEqual(['ETIMEDOUT', 'no answer after 100 ms']);
  });

  it(
    'should refuse a redirect into a refused address at that hop, ' +
      'before sending it anything (307 would re-send the body)',
    async () => {
      const victim = await serve(ok);
      const start = await serve(redirect(307, `${victim.url}/steal`));
      const e = await rejection(
        egressHttp(post(`${start.url}/start`), { policy: allowing(`127.0.0.1:${start.port}`) }),
      );
      expect(e).toBeInstanceOf(EgressRefusedError);
      expect(e.message).toBe(
        `redirect 1 to ${victim.url}: egress refused: 127.0.0.1:${victim.port} is loopback (EGRESS_ALLOW to allow it)`,
      );
      expect(start.hits.map((h) => h.body)).toEqual(['secret-body']);
      expect(victim.hits).toEqual([]);
    },
  );

  it('should refuse a redirect to a name that resolves into a refused address, in the lookup', async () => {
    const victim = await serve(ok);
    const start = await serve(redirect(308, `http://internal.test:${victim.port}/`));
    const resolver: EgressResolver = async () => [{ address: '127.0.0.1', family: 4 }];
    const e = await rejection(
      egressHttp(post(start.url), { policy: allowing(`127.0.0.1:${start.port},internal.test`), resolver }),
    );
    expect(e.message).toMatch(
      new RegExp(
        `^redirect 1 to http://internal\\.test:${victim.port}: ` +
          `egress refused: 127\\.0\\.0\\.1:${victim.port} \\(internal\\.test\\) is loopback`,
      ),
    );
    expect(victim.hits).toEqual([]);
  });

  it('should refuse a literal-IP URL in any spelling without a lookup', async () => {
    const victim = await serve(ok);
    let lookups = 0;
    const resolver: EgressResolver = async () => (lookups++, [{ address: '127.0.0.1', family: 4 }]);
    for (const host of ['2130706433', '0x7f000001', '127.1', '[::ffff:127.0.0.1]']) {
      const e = await rejection(
        egressHttp(
          { url: `http://${host}:${victim.port}/`, method: 'GET', headers: {}, signal: never() },
          { policy: EgressPolicy.fromSettings(), resolver },
        ),
      );
      expect([host, e.message]).toEqual([
        host,
        `egress refused: 127.0.0.1:${victim.port} is loopback (EGRESS_ALLOW to allow it)`,
      ]);
    }
    expect([lookups, victim.hits.length]).toEqual([0, 0]);
  });

  it(
    'should turn 301/302/303 into a GET without body or body headers, ' + 'and keep method and body on 307/308',
    async () => {
      const end = await serve(ok);
      for (const status of [301, 302, 303]) {
        const start = await serve(redirect(status, `${end.url}/after-${status}`));
        const { response } = await egressHttp(post(start.url), { policy: allowing('127.0.0.1') });
        response.destroy();
      }
      for (const status of [307, 308]) {
        const start = await serve(redirect(status, `${end.url}/after-${status}`));
        const { response, redirects, url } = await egressHttp(post(start.url), { policy: allowing('127.0.0.1') });
        expect([response.statusCode, redirects, url]).toEqual([200, 1, `${end.url}/after-${status}`]);
        response.destroy();
      }
      expect(end.hits.map((h) => [h.path, h.method, h.body, h.headers['content-type']])).toEqual([
        ['/after-301', 'GET', '', undefined],
        ['/after-302', 'GET', '', undefined],
        ['/after-303', 'GET', '', undefined],
        ['/after-307', 'POST', 'secret-body', 'text/plain'],
        ['/after-308', 'POST', 'secret-body', 'text/plain'],
      ]);
    },
  );

  it(
    'should drop Authorization, Cookie and Proxy-Authorization on a hop to another origin, ' +
      'and keep them on the same origin',
    async () => {
      const other = await serve(ok);
      const start = await serve((req, res) => {
        if (req.url === '/first') res.writeHead(302, { location: '/second' }).end();
        else res.writeHead(307, { location: `${other.url}/third` }).end();
      });
      const creds = { authorization: 'Bearer t', cookie: 'a=b', 'proxy-authorization': 'Basic x', 'x-kept': 'yes' };
      const { response } = await egressHttp(
        { url: `${start.url}/first`, method: 'GET', headers: creds, signal: never() },
        { policy: allowing('127.0.0.1') },
      );
      response.destroy();
      expect(start.hits[1].headers).toMatchObject(creds);
      expect(other.hits[0].headers).toMatchObject({ 'x-kept': 'yes' });
      expect(other.hits[0].headers).not.toHaveProperty('authorization');
      expect(other.hits[0].headers).not.toHaveProperty('cookie');
      expect(other.hits[0].headers).not.toHaveProperty('proxy-authorization');
    },
  );

  it('should follow at most maxRedirects redirects', async () => {
    const loop = await serve((req, res) =>
      res.writeHead(302, { location: `/hop/${Number(req.url?.split('/')[2] ?? 0) + 1}` }).end(),
    );
    const e = await rejection(
      egressHttp(
        { url: `${loop.url}/hop/0`, method: 'GET', headers: {}, signal: never() },
        { policy: allowing('127.0.0.1') },
      ),
    );
    expect(e.message).toBe('more than 5 redirects');
    expect(loop.hits).toHaveLength(6); // the first request and 5 redirects
    const three = await serve((req, res) =>
      req.url === '/hop/3'
        ? ok(req, res)
        : res.writeHead(301, { location: `/hop/${Number(req.url?.split('/')[2] ?? 0) + 1}` }).end(),
    );
    const { response, redirects } = await egressHttp(
      { url: `${three.url}/hop/0`, method: 'GET', headers: {}, signal: never() },
      { policy: allowing('127.0.0.1'), maxRedirects: 3 },
    );
    response.destroy();
    expect([response.statusCode, redirects]).toEqual([200, 3]);
    expect(
      (
        await rejection(
          egressHttp(
            { url: `${three.url}/hop/0`, method: 'GET', headers: {}, signal: never() },
            { policy: allowing('127.0.0.1'), maxRedirects: 2 },
          ),
        )
      ).message,
    ).toBe('more than 2 redirects');
  });

  it('should refuse a redirect to another scheme', async () => {
    const start = await serve(redirect(302, 'file:///etc/passwd'));
    expect(
      (
        await rejection(
          egressHttp(
            { url: start.url, method: 'GET', headers: {}, signal: never() },
            { policy: allowing('127.0.0.1') },
          ),
        )
      ).message,
    ).toBe('redirect 1 goes to file: (only http and https)');
  });

  it(
    'should fail, not hang, when the lookup fails, answers nothing ' + 'or answers something that is not an IP',
    async () => {
      const get = (resolver: EgressResolver) =>
        rejection(
          egressHttp(
            { url: 'http://nowhere.test/', method: 'GET', headers: {}, signal: never() },
            { policy: EgressPolicy.fromSettings(), resolver },
          ),
        );
      const failed = await get(() =>
        Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.test'), { code: 'ENOTFOUND' })),
      );
      expect((failed as NodeJS.ErrnoException).code).toBe('ENOTFOUND');
      expect((await get(async () => [])).message).toBe('getaddrinfo ENOTFOUND nowhere.test');
      expect((await get(async () => [{ address: 'not-an-ip', family: 4 }])).message).toBe(
        "not an IP address: 'not-an-ip'",
      );
    },
  );

  describe('DNS rebinding: the address checked is the address connected to', () => {
    // 127.0.0.2 stands for a public address (allowed); the victim listens on 127.0.0.1 (loopback, refused) on the
    // same port.
    let victim: TestServer;
    let outside: TestServer;
    beforeEach(async () => {
      victim = await serve((_req, res) => res.writeHead(200).end('victim'));
      outside = await serve((_req, res) => res.writeHead(200).end('outside'), '127.0.0.2', victim.port);
    });
    const policy = () => allowing(`127.0.0.2:1-65535`);

    it(
      'should connect to the one address the lookup checked, ' + 'even when the next answer would be loopback',
      async () => {
        const answers = ['127.0.0.2', '127.0.0.1', '127.0.0.1'];
        let calls = 0;
        const resolver: EgressResolver = async () => [{ address: answers[calls++], family: 4 }];
        const url = `http://rebind.test:${victim.port}/`;
        const first = await egressHttp(
          { url, method: 'GET', headers: {}, signal: never() },
          { policy: policy(), resolver },
        );
        first.response.destroy();
        expect(calls).toBe(1); // resolved once, checked, connected: no second lookup to rebind
        const second = await rejection(
          egressHttp({ url, method: 'GET', headers: {}, signal: never() }, { policy: policy(), resolver }),
        );
        expect(second.message).toBe(
          `egress refused: 127.0.0.1:${victim.port} (rebind.test) is loopback (EGRESS_ALLOW to allow it)`,
        );
        expect([outside.hits.length, victim.hits.length]).toEqual([1, 0]);
      },
    );

    it('should connect only to the allowed addresses of a mixed answer', async () => {
      const resolver: EgressResolver = async () => [
        { address: '127.0.0.1', family: 4 },
        { address: '::ffff:127.0.0.1', family: 6 },
        { address: '127.0.0.2', family: 4 },
      ];
      for (let i = 0; i < 3; i++) {
        const { response } = await egressHttp(
          { url: `http://mixed.test:${victim.port}/`, method: 'GET', headers: {}, signal: never() },
          { policy: policy(), resolver },
        );
        response.destroy();
      }
      expect([outside.hits.length, victim.hits.length]).toEqual([3, 0]);
    });
  });
});
