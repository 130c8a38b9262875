import { jest } from '@jest/globals';
import http from 'node:http';
import https from 'node:https';
import { APP, signedEchoServer, type SignedEchoServer, TLS } from '../../test/utils/signed-echo-server.js';
import { createTickwheelClient, sharedAgent, type TypedClientOptions, unwrap } from './index.js';

describe('createTickwheelClient without a fetch: node:http(s) with keep-alive', () => {
  let server: SignedEchoServer;
  const client = (extra: Partial<TypedClientOptions> = {}) =>
    createTickwheelClient({ baseUrl: server.url, ...APP, ...extra });
  afterEach(() => server.close());
  afterAll(() => ['http:', 'https:'].forEach((scheme) => sharedAgent(scheme).destroy()));

  it('should sign and send without fetch, answering a Response with its status, headers, url and data', async () => {
    server = await signedEchoServer(false, (n) => ({ status: n === 1 ? 204 : 202 }));
    const fetchSpy = jest.spyOn(globalThis, 'fetch');
    try {
      const c = client();
      const res = await c.POST('/api/tasks', { body: { requestId: 'r-é', handler: 'noop' } });
      expect(unwrap(res)).toEqual({ requestId: 'r-é', handler: 'noop' });
      expect([res.response.status, res.response.headers.get('x-answer'), res.response.url]).toEqual([
        202,
        '1',
        `${server.url}/api/tasks`,
      ]);
      const none = await c.DELETE('/api/callbacks', {});
      expect([none.response.status, none.data]).toEqual([204, undefined]);
      expect(server.seen.every((s) => s.valid)).toBe(true);
      expect(server.seen[0].headers['content-length']).toBe(String(Buffer.byteLength(JSON.stringify(unwrap(res)))));
      expect(fetchSpy).not.toHaveBeenCalled();
    } finally {
      fetchSpy.mockRestore();
    }
  });

  it('should reuse one keep-alive connection, through the agent it is given', async () => {
    server = await signedEchoServer();
    const c = client();
    for (let i = 0; i < 5; i++) await c.GET('/api/tasks/{requestId}', { params: { path: { requestId: `r${i}` } } });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const one = client({ agent });
    await Promise.all([1, 2, 3].map((i) => one.POST('/api/tasks', { body: { requestId: `q${i}`, handler: 'noop' } })));
    agent.destroy();
    expect([server.sockets(), server.seen.length]).toEqual([2, 8]);
  });

  it('should end a hung call on its abort signal with the reason, not trying it again', async () => {
    server = await signedEchoServer(false, () => 'hang');
    const abort = new AbortController();
    setTimeout(() => abort.abort(new Error('stop')), 100);
    const c = client({ retries: 2, sleep: async () => undefined });
    await expect(c.GET('/api/nodes', { signal: abort.signal })).rejects.toThrow('stop');
    expect(server.seen).toHaveLength(1);
  });

  it('should call an https server, trusting the CA of the agent it is given', async () => {
    server = await signedEchoServer(true);
    const agent = new https.Agent({ keepAlive: true, ca: TLS.cert });
    const res = await client({ agent }).POST('/api/tasks', { body: { requestId: 't1', handler: 'noop' } });
    agent.destroy();
    expect([res.response.status, server.seen[0].valid]).toEqual([202, true]);
  });
});
