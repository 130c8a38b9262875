import { jest } from '@jest/globals';
import http from 'node:http';
import https from 'node:https';
import {
  APP,
  signedEchoServer as localServer,
  type SignedEchoServer,
  TLS,
} from '../../test/utils/signed-echo-server.js';
import { SIGNATURE_HEADERS } from '../common/index.js';
import { sharedAgent } from './http-transport.js';
import { TickwheelClient, type TickwheelClientOptions } from './tickwheel-client.js';

describe(TickwheelClient.name, () => {
  let server: SignedEchoServer;
  const client = (extra: Partial<TickwheelClientOptions> = {}) =>
    new TickwheelClient({ baseUrl: server.url, ...APP, ...extra });
  afterEach(() => server.close());
  afterAll(() => ['http:', 'https:'].forEach((scheme) => sharedAgent(scheme).destroy()));

  it('should sign the path and query as sent (spaces, non-ASCII and dot segments normalised)', async () => {
    server = await localServer();
    const c = client();
    for (const path of ['/api/audit?action=job created', '/api/jobs/caf\u00e9', '/api/jobs/../nodes', '/api/jobs']) {
      await c.request('GET', path);
    }
    expect(server.seen.map((s) => s.url)).toEqual([
      '/api/audit?action=job%20created',
      '/api/jobs/caf%C3%A9',
      '/api/nodes',
      '/api/jobs',
    ]);
    expect(server.seen.every((s) => s.valid)).toBe(true);
  });

  it('should refuse a path that would leave the base URL (//host/...), sending nothing', async () => {
    server = await localServer();
    await expect(client().request('GET', '//evil.example/api/jobs')).rejects.toThrow(/path/);
    expect(server.seen).toEqual([]);
  });

  it('should send over node:http, not fetch, a body with its length; answer status, headers and JSON', async () => {
    server = await localServer();
    const fetchSpy = jest.spyOn(globalThis, 'fetch');
    try {
      const r = await client().submitTask({ requestId: 'r-é', handler: 'noop' });
      expect([r.status, r.body, r.headers.get('x-answer')]).toEqual([202, { requestId: 'r-é', handler: 'noop' }, '1']);
      const posted = await client().request('POST', '/api/tasks/r1/cancel');
      expect([posted.status, server.seen[1].headers['content-length']]).toEqual([202, '0']);
      expect(server.seen[0].headers['content-length']).toBe(String(Buffer.byteLength(JSON.stringify(r.body))));
      expect(fetchSpy).not.toHaveBeenCalled();
    } finally {
      fetchSpy.mockRestore();
    }
  });

  it('should reuse one keep-alive connection for calls one after another, also across clients', async () => {
    server = await localServer();
    for (let i = 0; i < 10; i++) await client().submitTask({ requestId: `r${i}`, handler: 'noop' });
    expect(server.sockets()).toBe(1);
    expect(server.seen.every((s) => s.valid && s.socket === 1)).toBe(true);
  });

  it('should send through the agent it is given (here one connection at most, so parallel calls queue)', async () => {
    server = await localServer();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const c = client({ agent });
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => c.getTask(`r${i}`)));
    agent.destroy();
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 202, 202]);
    expect(server.sockets()).toBe(1);
  });

  it('should call an https server, trusting the CA of the agent it is given', async () => {
    server = await localServer(true);
    const agent = new https.Agent({ keepAlive: true, ca: TLS.cert });
    const r = await client({ agent }).submitTask({ requestId: 't1', handler: 'noop' });
    agent.destroy();
    expect([r.status, server.seen[0].valid]).toEqual([202, true]);
    await expect(client().submitTask({ requestId: 't2', handler: 'noop' })).rejects.toThrow(/self-signed|certificate/);
  });

  it('should end a try at tryTimeoutMs with a TimeoutError, and try a replayable submit again', async () => {
    server = await localServer(false, (n) => (n < 2 ? 'hang' : { status: 202 }));
    const started = Date.now();
    const err = await client({ tryTimeoutMs: 200 })
      .getTask('r1')
      .catch((e: Error) => e);
    expect([(err as Error).name, Date.now() - started < 2_000]).toEqual(['TimeoutError', true]);
    const sleeps: number[] = [];
    const sleep = async (ms: number) => void sleeps.push(ms);
    const r = await client({ tryTimeoutMs: 200, retries: 1, sleep }).submitTask({ requestId: 'r1', handler: 'x' });
    expect([r.status, server.seen.length, sleeps.length]).toEqual([202, 3, 1]);
  });

  it('should wait a Retry-After and retry a call with an Idempotency-Key, within retries', async () => {
    const faults = [
      { status: 503, headers: { 'retry-after': '2' } },
      { status: 502 },
      { status: 202 },
      { status: 503 },
    ];
    server = await localServer(false, (n) => faults[n] ?? { status: 202 });
    const sleeps: number[] = [];
    const c = client({ retries: 2, sleep: async (ms: number) => void sleeps.push(ms) });
    const r = await c.request('POST', '/api/jobs/nightly/pause', undefined, { 'Idempotency-Key': 'k1' });
    expect([r.status, server.seen.length, sleeps[0]]).toEqual([202, 3, 2000]);
    expect(new Set(server.seen.map((s) => s.headers[SIGNATURE_HEADERS.nonce])).size).toBe(3);
    const once = await c.request('POST', '/api/jobs/nightly/pause');
    expect([once.status, server.seen.length]).toEqual([503, 4]);
  });

  it('should reject an unreachable server with a TypeError whose cause names the socket error', async () => {
    server = await localServer();
    const url = server.url;
    await server.close();
    const err = (await new TickwheelClient({ baseUrl: url, ...APP }).request('GET', '/api/jobs').catch((e) => e)) as {
      cause?: { code?: string };
    };
    expect([err instanceof TypeError, err.cause?.code]).toEqual([true, 'ECONNREFUSED']);
    server = await localServer();
  });
});
