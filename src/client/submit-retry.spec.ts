import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { clientFromEnv } from '../bin/cli-credentials.js';
import { SIGNATURE_HEADERS, signRequest } from '../common/index.js';
import { createTickwheelClient, type TypedClientOptions } from './index.js';
import { TickwheelClient } from './tickwheel-client.js';

/** What the local server does with one request: answer a status (with headers), cut the socket, or hang. */
type Fault = { status: number; headers?: Record<string, string> } | 'reset' | 'hang';

/**
 * A node:http server that meets the first requests with `faults`, in turn, then answers 202 with the request's
 * body; it records each request (path, nonce, body) as it came.
 */
async function flakyServer(faults: Fault[]) {
  const seen: Array<{ path: string; nonce: string; body: string; signed: boolean }> = [];
  const hung: ServerResponse[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const h = (name: string) => String(req.headers[name.toLowerCase()]);
      const nonce = h(SIGNATURE_HEADERS.nonce);
      const expected = signRequest(APP.secret, {
        ...{ appId: APP.appId, method: String(req.method), pathAndQuery: req.url ?? '', nonce, body },
        timestampMs: h(SIGNATURE_HEADERS.timestamp),
      });
      seen.push({ path: req.url ?? '', nonce, body, signed: h(SIGNATURE_HEADERS.signature) === expected });
      const fault = faults.shift();
      if (fault === 'reset') return req.socket.destroy();
      if (fault === 'hang') return void hung.push(res);
      const status = fault?.status ?? 202;
      res.writeHead(status, { 'content-type': 'application/json', ...fault?.headers });
      res.end(status === 202 ? body : JSON.stringify({ status, code: 'X', title: 'x', detail: 'd' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = async () => {
    for (const res of hung) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return { url, seen, close, faults };
}

const APP = { appId: 'app-1', secret: 'secret-of-app-1' };
const TASK = { requestId: 'order-42', handler: 'noop', params: {} };
const ANON = { handler: 'noop', params: {} }; // no requestId: the server makes one per request

describe('submits with a requestId are tried again (network errors, 500/502/503/504), others are not', () => {
  let server: Awaited<ReturnType<typeof flakyServer>>;
  const sleeps: number[] = [];
  const sleep = async (ms: number) => void sleeps.push(ms);
  afterEach(async () => {
    await server.close();
    sleeps.length = 0;
  });

  const typed = async (faults: Fault[], extra: Partial<TypedClientOptions> = {}) => {
    server = await flakyServer(faults);
    return createTickwheelClient({ baseUrl: server.url, ...APP, sleep, ...extra });
  };

  it('should submit through two 500s and a reset socket, signing each try anew, the same body each time', async () => {
    const c = await typed([{ status: 500 }, 'reset', { status: 500 }], { retries: 3 });
    const { response } = await c.POST('/api/tasks', { body: TASK });
    expect(response.status).toBe(202);
    expect(server.seen).toHaveLength(4);
    expect(new Set(server.seen.map((s) => s.nonce)).size).toBe(4);
    expect(new Set(server.seen.map((s) => s.body))).toEqual(new Set([JSON.stringify(TASK)]));
    expect(server.seen.every((s) => s.signed)).toBe(true);
    expect(sleeps).toHaveLength(3);
  });

  it('should wait what Retry-After says on a 503, and retry 502 and 504 too', async () => {
    const c = await typed([{ status: 503, headers: { 'retry-after': '2' } }, { status: 502 }, { status: 504 }], {
      retries: 3,
    });
    expect((await c.POST('/api/tasks', { body: TASK })).response.status).toBe(202);
    expect(sleeps[0]).toBe(2000);
    expect(server.seen).toHaveLength(4);
  });

  it('should try a batch again only when every task has a requestId', async () => {
    const tasks = [TASK, { ...TASK, requestId: 'order-43' }];
    const c = await typed([{ status: 500 }, { status: 500 }]);
    expect((await c.POST('/api/tasks/batch', { body: { tasks } })).response.status).toBe(202);
    expect(server.seen).toHaveLength(3);
    server.faults.push({ status: 500 });
    expect((await c.POST('/api/tasks/batch', { body: { tasks: [TASK, ANON] } })).response.status).toBe(500);
    expect(server.seen).toHaveLength(4);
  });

  it('should be bounded: 1 + retries tries, then the last answer', async () => {
    const c = await typed(
      Array.from({ length: 10 }, () => ({ status: 500 })),
      { retries: 2 },
    );
    expect((await c.POST('/api/tasks', { body: TASK })).response.status).toBe(500);
    expect(server.seen).toHaveLength(3);
  });

  it('should end a try that does not answer within tryTimeoutMs and try again', async () => {
    const c = await typed(['hang'], { tryTimeoutMs: 300 });
    expect((await c.POST('/api/tasks', { body: TASK })).response.status).toBe(202);
    expect(server.seen).toHaveLength(2);
  });

  it('should send a submit without requestId once, whatever happens: a retry could make a second task', async () => {
    const c = await typed([{ status: 500 }, 'reset', { status: 503 }]);
    expect((await c.POST('/api/tasks', { body: ANON })).response.status).toBe(500);
    await expect(c.POST('/api/tasks', { body: ANON })).rejects.toThrow();
    expect((await c.POST('/api/tasks', { body: ANON })).response.status).toBe(503);
    expect(server.seen).toHaveLength(3);
    expect(sleeps).toEqual([]);
  });

  it('should not retry a 500 of a call that is not a submit (a GET gets 429/502/503/504 only)', async () => {
    const c = await typed([{ status: 500 }]);
    const { response } = await c.GET('/api/tasks/{requestId}', { params: { path: { requestId: 'order-42' } } });
    expect(response.status).toBe(500);
    expect(server.seen).toHaveLength(1);
  });

  it("should retry a submit with requestId the same way in tw's client, and a submit without one not", async () => {
    server = await flakyServer([{ status: 500 }, 'reset']);
    const tw = clientFromEnv({ TICKWHEEL_URL: server.url, TICKWHEEL_APP_ID: APP.appId, TICKWHEEL_SECRET: APP.secret });
    expect((await tw.submitTask(TASK)).status).toBe(202); // 500, reset, 202: two retries (CLI_RETRIES)
    expect(server.seen).toHaveLength(3);
    server.faults.push({ status: 500 }, 'reset');
    expect((await tw.submitTask(ANON)).status).toBe(500);
    await expect(tw.submitTask(ANON)).rejects.toThrow();
    expect(server.seen).toHaveLength(5);
    expect(server.seen.every((r) => r.signed)).toBe(true);
    await server.close();
    server = await flakyServer([{ status: 500 }]);
    const plain = new TickwheelClient({ baseUrl: server.url, ...APP }); // retries 0 by default: sent once
    expect((await plain.submitTask(TASK)).status).toBe(500);
    expect(server.seen).toHaveLength(1);
  });

  it("should end a hung try at tryTimeoutMs in tw's client even without retries", async () => {
    server = await flakyServer(['hang']);
    const once = new TickwheelClient({ baseUrl: server.url, ...APP, tryTimeoutMs: 300 });
    await expect(once.submitTask(TASK)).rejects.toThrow();
    expect(server.seen).toHaveLength(1);
  });
});
