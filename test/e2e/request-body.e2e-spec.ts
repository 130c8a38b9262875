import { jest } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { SIGNATURE_HEADERS as H } from '../../src/common/signing.js';
import { rawExchange } from '../utils/raw-http.js';
import { signedClient, standaloneEnv, startNode, TestNode } from '../utils/test-node.js';

const MiB = 1024 * 1024;

/** A task body whose params nest `depth` arrays (built as text: JSON.stringify itself overflows at this depth). */
const deepTask = (depth: number) => `{"handler":"noop","params":{"deep":${'['.repeat(depth)}1${']'.repeat(depth)}}}`;

/** 2,000,038 bytes, a million arrays deep: within the 2 MiB cap, and costly to parse. */
const DEEP_2MB = deepTask(1_000_000);

/**
 * An unauthenticated request never gets its body parsed (README "Signing"): a 2 MB deeply nested body costs most
 * of a second of CPU to parse, and /health/live would wait behind it. Headers are checked first, the body is read
 * with a 2 MiB cap and hashed as it streams, and parsed only once the signature and nonce were.
 */
describe('request bodies: headers first, bounded, hashed as they stream, parsed only once signed (standalone)', () => {
  let node: TestNode;
  let client: TickwheelClient;
  let port: number;
  const appId = `body-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    node = await startNode(standaloneEnv());
    client = await signedClient(node, appId);
    port = (node.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(async () => node?.close());

  const taskCount = async (): Promise<number> =>
    Number((await node.ds.query('SELECT COUNT(*) AS c FROM job_instance'))[0].c);

  /** POST `body` to /api/tasks with `headers` (content-type JSON unless given); status and problem. */
  async function post(
    headers: Record<string, string>,
    body: string | Buffer,
    path = '/api/tasks',
  ): Promise<{ status: number; contentType: string; body: Record<string, unknown> }> {
    const res = await fetch(`${node.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
    const text = await res.text();
    return {
      status: res.status,
      contentType: res.headers.get('content-type') ?? '',
      body: text ? JSON.parse(text) : {},
    };
  }

  it('should refuse unauthenticated 2 MB deeply nested bodies without parsing them, while /health/live keeps answering', async () => {
    const before = await taskCount();
    const unsigned = () => ({});
    const unknownApp = () => ({
      ...client.sign('POST', '/api/tasks', DEEP_2MB),
      [H.appId]: `nobody-${randomBytes(4).toString('hex')}`,
    });
    const wrongSecret = () =>
      new TickwheelClient({ baseUrl: node.url, appId, secret: 'not-the-secret' }).sign('POST', '/api/tasks', DEEP_2MB);
    const kinds = [unsigned, unknownApp, wrongSecret];
    const spy = jest.spyOn(JSON, 'parse');
    const bigParses = () => spy.mock.calls.filter(([text]) => typeof text === 'string' && text.length > MiB).length;
    const health: Array<{ status: number; ms: number }> = [];
    let storming = true;
    try {
      const probe = (async () => {
        while (storming) {
          const s = performance.now();
          const res = await fetch(`${node.url}/health/live`);
          await res.text();
          health.push({ status: res.status, ms: performance.now() - s });
        }
      })();
      const statuses: number[] = [];
      for (let wave = 0; wave < 5; wave++) {
        statuses.push(
          ...(await Promise.all(
            Array.from({ length: 4 }, (_, i) => post(kinds[(wave * 4 + i) % 3](), DEEP_2MB).then((r) => r.status)),
          )),
        );
      }
      storming = false;
      await probe;
      expect(statuses).toEqual(Array(20).fill(401));
      expect(bigParses()).toBe(0);
    } finally {
      storming = false;
      spy.mockRestore();
    }
    expect(await taskCount()).toBe(before);
    expect(health.length).toBeGreaterThan(0);
    expect(health.every((h) => h.status === 200)).toBe(true);
    // No latency bound here: this process is the client too (it builds and sends the 2 MB bodies), so a probe's
    // wait measures both sides, and a full-suite run saw 1 s with no parse at all. The JSON.parse spy is the proof.
  });

  it('should parse a signed body once its signature and nonce were checked, and name the field nested too deep', async () => {
    const spy = jest.spyOn(JSON, 'parse');
    let res;
    try {
      res = await client.request<{ field: string }>('POST', '/api/tasks', DEEP_2MB);
      expect(spy.mock.calls.filter(([text]) => typeof text === 'string' && text.length > MiB)).toHaveLength(1);
    } finally {
      spy.mockRestore();
    }
    expect([res.status, res.body.field]).toEqual([400, 'params']);
  });

  it('should answer 400 naming the body for one that is not a JSON object or array', async () => {
    for (const body of ['{"handler":', 'null', '"noop"', '42', 'handler=noop']) {
      const res = await client.request<{ field: string; code: string }>('POST', '/api/tasks', body);
      expect([body, res.status, res.body.field, res.body.code]).toEqual([body, 400, 'body', 'VALIDATION']);
    }
  });

  it('should answer 413 to a Content-Length over 2 MiB at once, read none of the body, and close the connection', async () => {
    const before = await taskCount();
    const head = rawHead('Content-Length: 67108864'); // 64 MiB announced and offered
    let offered = 0;
    const r = await rawExchange(port, head, () =>
      offered >= 64 * MiB ? null : ((offered += 64 * 1024), Buffer.alloc(64 * 1024, 0x20)),
    );
    expect(r.response).toMatch(/^HTTP\/1\.1 413 /);
    expect(r.response).toMatch(/\r\nconnection: close\r\n/i);
    expect(r.response).toMatch(/"code":"PAYLOAD_TOO_LARGE"/);
    expect(r.closedEarly).toBe(true);
    expect(r.written).toBeLessThan(64 * MiB);
    expect(await taskCount()).toBe(before);
  });

  it('should answer 413 to a chunked body once it passes 2 MiB, and close the connection without reading on', async () => {
    const chunk = Buffer.concat([Buffer.from('10000\r\n'), Buffer.alloc(0x10000, 0x20), Buffer.from('\r\n')]);
    let sent = 0;
    const r = await rawExchange(port, rawHead('Transfer-Encoding: chunked'), () => (sent++ >= 1024 ? null : chunk)); // 64 MiB offered
    expect(r.response).toMatch(/^HTTP\/1\.1 413 /);
    expect(r.response).toMatch(/\r\nconnection: close\r\n/i);
    expect(r.closedEarly).toBe(true);
    expect(r.written).toBeLessThan(64 * MiB);
  });

  it('should refuse a body that is not application/json (utf-8) with 415, and accept the spellings of JSON', async () => {
    const before = await taskCount();
    const body = JSON.stringify({ handler: 'noop' });
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json; charset=latin1',
      'application/jsonx',
      'application/xml',
    ]) {
      const res = await post({ ...client.sign('POST', '/api/tasks', body), 'content-type': type }, body);
      expect([type, res.status, res.body.code]).toEqual([type, 415, 'UNSUPPORTED_MEDIA_TYPE']);
      expect(res.contentType).toMatch(/^application\/problem\+json/);
    }
    expect((await rawPost(client.sign('POST', '/api/tasks', body), body)).status).toBe(415); // no Content-Type at all
    expect(await taskCount()).toBe(before);
    for (const type of ['application/json; charset=UTF-8', 'Application/JSON', 'application/json;charset="utf-8"']) {
      expect((await post({ ...client.sign('POST', '/api/tasks', body), 'content-type': type }, body)).status).toBe(202);
    }
  });

  it('should take an empty chunked body without a Content-Type as no body, and refuse a non-empty one with 415', async () => {
    const chunked = (body: string) => {
      const h = client.sign('POST', '/api/tasks', body);
      const head = `POST /api/tasks HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n${Object.entries(
        h,
      )
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('')}\r\n`;
      let sent = false;
      const chunks = `${body ? `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n` : ''}0\r\n\r\n`;
      return rawExchange(port, head, () => (sent ? null : ((sent = true), Buffer.from(chunks))));
    };
    const empty = await chunked('');
    expect(empty.response).toMatch(/^HTTP\/1\.1 400 /); // no body: the route says what is missing
    expect(empty.response).toMatch(/"field":"handler"/);
    expect((await chunked(JSON.stringify({ handler: 'noop' }))).response).toMatch(/^HTTP\/1\.1 415 /);
  });

  it('should refuse a compressed body with 415 without inflating it (a gzip bomb costs nothing)', async () => {
    const before = await taskCount();
    const bomb = gzipSync(
      Buffer.concat([
        Buffer.from('{"handler":"noop","params":{"pad":"'),
        Buffer.alloc(100 * MiB, 0x61),
        Buffer.from('"}}'),
      ]),
    );
    for (const encoding of ['gzip', 'deflate', 'br', 'gzip, identity']) {
      const res = await post({ ...client.sign('POST', '/api/tasks', bomb), 'content-encoding': encoding }, bomb);
      expect([encoding, res.status, res.body.code]).toEqual([encoding, 415, 'UNSUPPORTED_MEDIA_TYPE']);
    }
    expect(await taskCount()).toBe(before);
    const plain = JSON.stringify({ handler: 'noop' });
    expect(
      (await post({ ...client.sign('POST', '/api/tasks', plain), 'content-encoding': 'identity' }, plain)).status,
    ).toBe(202);
  });

  it("should answer 431 to headers over Node's 16 KB cap", async () => {
    const r = await rawExchange(
      port,
      `GET /api/tasks/x HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: ${'a'.repeat(20 * 1024)}\r\n\r\n`,
      () => null,
    );
    expect(r.response).toMatch(/^HTTP\/1\.1 431 /);
    expect((await fetch(`${node.url}/health/ready`)).status).toBe(200);
  });

  /** Request line and headers of a signed-looking POST /api/tasks (the body is refused before its signature matters). */
  function rawHead(lengthHeader: string): string {
    const h = client.sign('POST', '/api/tasks', '');
    return `POST /api/tasks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${lengthHeader}\r\n${Object.entries(
      h,
    )
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n`;
  }

  /** POST through node:http with exactly `headers` (fetch would add a Content-Type). */
  function rawPost(headers: Record<string, string>, body: string): Promise<{ status: number }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        `${node.url}/api/tasks`,
        { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }
});
