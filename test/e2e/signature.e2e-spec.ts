import { Logger } from '@nestjs/common';
import { jest } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { SIGNATURE_HEADERS as H } from '../../src/common/signing.js';
import { ApiClientService } from '../../src/modules/openapi/index.js';
import { NONCE_SKEW_MARGIN_MS } from '../../src/modules/openapi/auth/signed-request.middleware.js';
import { HttpReceiver, startReceiver } from '../utils/http-receiver.js';
import { rawExchange } from '../utils/raw-http.js';
import { clusterEnv, REDIS_URL, signedClient, startNode, TestNode, uniqueNamespace } from '../utils/test-node.js';
import { neverFiringJob } from '../utils/jobs.js';
import { signatureHeaders } from '../utils/signing.js';

interface Answer {
  status: number;
  contentType: string;
  body: Record<string, unknown>;
}

interface SignOpts {
  appId?: string;
  secret?: string;
  ts?: number;
  nonce?: string;
}

describe('request signing (docs/api.md) on a cluster node', () => {
  const ns = uniqueNamespace('e2e-sig');
  let node: TestNode;
  let receiver: HttpReceiver;
  const appId = `sig-${randomBytes(4).toString('hex')}`;
  let secret: string;
  /** detail texts of every 401 seen, to prove they never differ. */
  const unauthorizedDetails = new Set<string>();

  beforeAll(async () => {
    receiver = await startReceiver();
    node = await startNode(clusterEnv(ns));
    ({ secret } = await node.app.get(ApiClientService).create(appId));
  }, 60_000);

  afterAll(async () => {
    await node?.close();
    await receiver?.close();
  });

  /** The four headers for `method pathAndQuery body`, with any part overridable. */
  function sign(method: string, pathAndQuery: string, body: string, o: SignOpts = {}): Record<string, string> {
    const signer = { appId: o.appId ?? appId, secret: o.secret ?? secret, timestampMs: o.ts, nonce: o.nonce };
    return signatureHeaders(signer, method, pathAndQuery, body);
  }

  /** Plain fetch with the given headers; a body is sent as JSON. */
  async function send(
    method: string,
    pathAndQuery: string,
    headers: Record<string, string>,
    body = '',
  ): Promise<Answer> {
    const res = await fetch(`${node.url}${pathAndQuery}`, {
      method,
      headers: body ? { ...headers, 'content-type': 'application/json' } : headers,
      body: body || undefined,
    });
    const text = await res.text();
    let parsed: Record<string, unknown>;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      parsed = { text };
    }
    return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: parsed };
  }

  /** Asserts a bare 401 problem: no field, nothing that says which part failed. */
  function expectUnauthorized(a: Answer): void {
    expect({ status: a.status, body: a.body }).toMatchObject({ status: 401 });
    expect(a.contentType).toMatch(/^application\/problem\+json/);
    expect(a.body).toMatchObject({ status: 401, title: expect.any(String), detail: expect.any(String) });
    expect(a.body).not.toHaveProperty('field');
    unauthorizedDetails.add(String(a.body.detail));
  }

  const jobBody = (code: string) => JSON.stringify({ ...neverFiringJob(code), enabled: false });

  it('should accept a correctly signed GET and POST', async () => {
    const get = await send('GET', '/api/jobs?limit=1', sign('GET', '/api/jobs?limit=1', ''));
    expect(get.status).toBe(200);
    expect(get.body).toMatchObject({ total: 0, items: [] });
    const body = jobBody('signed-ok');
    const post = await send('POST', '/api/jobs', sign('POST', '/api/jobs', body), body);
    expect(post.status).toBe(201);
    expect(post.body.code).toBe('signed-ok');
  });

  it('should accept an upper-case hex signature and a timestamp 290 s off', async () => {
    const h = sign('GET', '/api/jobs', '');
    expect(
      (await send('GET', '/api/jobs', { ...h, [H.signature]: `v2=${h[H.signature].slice(3).toUpperCase()}` })).status,
    ).toBe(200);
    expect((await send('GET', '/api/jobs', sign('GET', '/api/jobs', '', { ts: Date.now() - 290_000 }))).status).toBe(
      200,
    );
    expect((await send('GET', '/api/jobs', sign('GET', '/api/jobs', '', { ts: Date.now() + 290_000 }))).status).toBe(
      200,
    );
  });

  it('should refuse a request without signature headers, or with any one of them missing', async () => {
    expectUnauthorized(await send('GET', '/api/jobs', {}));
    for (const name of Object.values(H)) {
      const h = sign('GET', '/api/jobs', '');
      delete h[name];
      expectUnauthorized(await send('GET', '/api/jobs', h));
    }
  });

  it('should refuse a signature made with the wrong secret', async () => {
    expectUnauthorized(await send('GET', '/api/jobs', sign('GET', '/api/jobs', '', { secret: `${secret}x` })));
  });

  it('should refuse a body altered after signing, and not act on it', async () => {
    const signedBody = jobBody('tamper-a');
    const sent = jobBody('tamper-b');
    expectUnauthorized(await send('POST', '/api/jobs', sign('POST', '/api/jobs', signedBody), sent));
    for (const code of ['tamper-a', 'tamper-b']) {
      expect((await send('GET', `/api/jobs/${code}`, sign('GET', `/api/jobs/${code}`, ''))).status).toBe(404);
    }
  });

  it('should refuse an altered query string or path', async () => {
    expectUnauthorized(await send('GET', '/api/jobs?limit=2', sign('GET', '/api/jobs?limit=1', '')));
    expectUnauthorized(await send('GET', '/api/jobs?limit=1&offset=0', sign('GET', '/api/jobs?limit=1', '')));
    expectUnauthorized(await send('GET', '/api/jobs', sign('GET', '/api/jobs?limit=1', '')));
    expectUnauthorized(await send('GET', '/api/nodes', sign('GET', '/api/jobs', '')));
  });

  it('should refuse a timestamp 301 s in the past or in the future, or not in epoch ms', async () => {
    expectUnauthorized(await send('GET', '/api/jobs', sign('GET', '/api/jobs', '', { ts: Date.now() - 301_000 })));
    // A timestamp ahead comes 1 s closer to the window for every second the request takes: an acceptance after
    // a second or more (a loaded machine) proves nothing about the window, so that request is sent again.
    let ahead: Answer;
    for (let tries = 1; ; tries++) {
      const signedAt = Date.now();
      ahead = await send('GET', '/api/jobs', sign('GET', '/api/jobs', '', { ts: signedAt + 301_000 }));
      if (ahead.status !== 200 || Date.now() - signedAt < 1000 || tries === 5) break;
    }
    expectUnauthorized(ahead);
    expectUnauthorized(
      await send('GET', '/api/jobs', sign('GET', '/api/jobs', '', { ts: Math.floor(Date.now() / 1000) })),
    );
  });

  it('should accept a nonce once: the same signed request sent twice is refused the second time', async () => {
    const h = sign('GET', '/api/jobs', '');
    expect((await send('GET', '/api/jobs', h)).status).toBe(200);
    expectUnauthorized(await send('GET', '/api/jobs', h));
    const nonce = randomBytes(12).toString('hex');
    expect((await send('GET', '/api/jobs?limit=3', sign('GET', '/api/jobs?limit=3', '', { nonce }))).status).toBe(200);
    expectUnauthorized(await send('GET', '/api/jobs?limit=4', sign('GET', '/api/jobs?limit=4', '', { nonce })));
  });

  it('should remember a nonce past twice the window by the clock-skew margin, so a node whose clock is behind still refuses its replay', async () => {
    const nonce = randomBytes(12).toString('hex');
    expect((await send('GET', '/api/jobs', sign('GET', '/api/jobs', '', { nonce }))).status).toBe(200);
    const redis = new Redis(REDIS_URL);
    try {
      const ttl = await redis.pttl(`{tw:${ns}}:nonce:${appId}:${nonce}`);
      expect(ttl).toBeGreaterThan(2 * 300_000 + NONCE_SKEW_MARGIN_MS - 10_000);
      expect(ttl).toBeLessThanOrEqual(2 * 300_000 + NONCE_SKEW_MARGIN_MS);
    } finally {
      redis.disconnect();
    }
  });

  it('should not let a request with a bad signature spend the nonce', async () => {
    const nonce = randomBytes(12).toString('hex');
    expectUnauthorized(
      await send('GET', '/api/jobs', sign('GET', '/api/jobs', '', { nonce, secret: 'not-the-secret' })),
    );
    expect((await send('GET', '/api/jobs', sign('GET', '/api/jobs', '', { nonce }))).status).toBe(200);
  });

  it('should refuse an unknown app id, a non-hex signature and a malformed nonce', async () => {
    expectUnauthorized(await send('GET', '/api/jobs', sign('GET', '/api/jobs', '', { appId: 'no-such-app' })));
    const h = sign('GET', '/api/jobs', '');
    expectUnauthorized(await send('GET', '/api/jobs', { ...h, [H.signature]: 'z'.repeat(64) }));
    expectUnauthorized(await send('GET', '/api/jobs', { ...h, [H.signature]: h[H.signature].slice(0, 63) }));
    expectUnauthorized(await send('GET', '/api/jobs', sign('GET', '/api/jobs', '', { nonce: 'short' })));
    expectUnauthorized(await send('GET', '/api/jobs', sign('GET', '/api/jobs', '', { nonce: 'has space in it' })));
  });

  it('should refuse unsigned calls whatever the letter case of the path (Express routes ignore case)', async () => {
    for (const path of ['/API/jobs', '/Api/jobs/', '/API/nodes', '/aPi/tasks/nope'])
      expectUnauthorized(await send('GET', path, {}));
    const body = JSON.stringify({
      requestId: 'case-bypass',
      handler: 'http',
      params: { url: `${receiver.url}/bypass` },
    });
    expectUnauthorized(await send('POST', '/API/tasks', {}, body));
    const rows: unknown[] = await node.ds.query('SELECT id FROM job_instance WHERE namespace = ? AND request_id = ?', [
      ns,
      'case-bypass',
    ]);
    expect(rows).toHaveLength(0);
    expect((await send('GET', '/API/jobs', sign('GET', '/API/jobs', ''))).status).toBe(200);
  });

  it('should refuse an unsigned absolute-form request target (POST http://host/api/tasks) and not act on it', async () => {
    const body = JSON.stringify({ requestId: 'absolute-form', handler: 'noop' });
    const { port } = new URL(node.url);
    const head = `POST http://127.0.0.1:${port}/api/tasks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
    let sent = false;
    const r = await rawExchange(Number(port), head, () => (sent ? null : ((sent = true), Buffer.from(body))));
    expect(r.response).toMatch(/^HTTP\/1\.1 401 /);
    const rows: unknown[] = await node.ds.query('SELECT id FROM job_instance WHERE namespace = ? AND request_id = ?', [
      ns,
      'absolute-form',
    ]);
    expect(rows).toHaveLength(0);
  });

  it('should log why each 401 was refused at debug level, for the operator (the answer stays the same)', async () => {
    const lines: string[] = [];
    const spy = jest.spyOn(Logger.prototype, 'debug').mockImplementation(function (this: Logger, message: unknown) {
      if (this.context === 'SignedRequestMiddleware') lines.push(String(message));
    });
    try {
      expectUnauthorized(await send('GET', '/api/nodes', sign('GET', '/api/nodes', '', { secret: 'wrong' })));
      expectUnauthorized(await send('GET', '/api/nodes', sign('GET', '/api/nodes', '', { ts: Date.now() - 400_000 })));
      expectUnauthorized(await send('GET', '/api/nodes', sign('GET', '/api/nodes', '', { appId: 'nobody-here' })));
      const replayed = sign('GET', '/api/nodes', '');
      expect((await send('GET', '/api/nodes', replayed)).status).toBe(200);
      expectUnauthorized(await send('GET', '/api/nodes', replayed));
      expectUnauthorized(await send('GET', '/api/nodes', {}));
    } finally {
      spy.mockRestore();
    }
    expect(lines).toEqual([
      expect.stringMatching(/^401 GET \/api\/nodes from .*, app 'sig-[0-9a-f]+': signature does not match/),
      expect.stringMatching(/: timestamp 4\d{5} ms from this server's clock \(window ±300000 ms\)$/),
      expect.stringMatching(/app 'nobody-here': no such app$/),
      expect.stringMatching(/: nonce already used \(a replay\)$/),
      expect.stringMatching(/app '': missing x-app-id, x-timestamp, x-nonce, x-signature$/i),
    ]);
  });

  it('should answer every 401 with the same detail text', async () => {
    expectUnauthorized(await send('GET', '/api/jobs', {}));
    expectUnauthorized(await send('GET', '/api/jobs', sign('GET', '/api/jobs', '', { secret: 'wrong' })));
    expectUnauthorized(await send('GET', '/api/jobs', sign('GET', '/api/jobs', '', { ts: Date.now() - 400_000 })));
    expectUnauthorized(await send('GET', '/api/jobs', sign('GET', '/api/jobs', '', { appId: 'ghost-app' })));
    expect(unauthorizedDetails.size).toBe(1);
    const [detail] = [...unauthorizedDetails];
    expect(detail).not.toMatch(/nonce|timestamp|secret|app id|body|expired|replay/i);
  });

  it('should serve health, metrics and docs without a signature', async () => {
    const live = await fetch(`${node.url}/health/live`);
    expect(live.status).toBe(200);
    expect(live.headers.get('x-powered-by')).toBeNull(); // nothing tells a stranger what serves it
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${node.url}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: 'ok',
      info: { database: { status: 'up' }, redis: { status: 'up' } },
    });
    const metrics = await fetch(`${node.url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await metrics.text()).toMatch(/^# HELP /m);
    const docs = await fetch(`${node.url}/docs`);
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toMatch(/text\/html/);
    const spec = await fetch(`${node.url}/docs/openapi.json`);
    expect(spec.status).toBe(200);
    expect(((await spec.json()) as { paths: object }).paths).toHaveProperty('/api/jobs');
  });

  it("should not show one app's task to another, and keep request ids per app", async () => {
    const a: TickwheelClient = await signedClient(node);
    const b: TickwheelClient = await signedClient(node);
    const requestId = `shared-${randomBytes(4).toString('hex')}`;
    const submitted = await a.submitTask({ requestId, handler: 'http', params: { url: `${receiver.url}/a` } });
    expect(submitted.status).toBe(202);
    expect((await a.getTask(requestId)).status).toBe(200);
    const foreign = await b.getTask(requestId);
    expect(foreign.status).toBe(404);
    expect(foreign.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const own = await b.submitTask({ requestId, handler: 'http', params: { url: `${receiver.url}/b` } });
    expect(own.status).toBe(202);
    expect(own.headers.get('idempotent-replayed')).toBeNull();
    const rows: Array<{ app_id: string }> = await node.ds.query(
      'SELECT app_id FROM job_instance WHERE namespace = ? AND request_id = ?',
      [ns, requestId],
    );
    expect(rows).toHaveLength(2);
  });
});
