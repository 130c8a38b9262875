import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type ProductProcess, startProcess } from '../utils/process-node.js';
import { waitFor } from '../utils/test-node.js';

type ClientEntry = typeof import('../../src/client/index.js');
const run = promisify(execFile);

async function freePort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

const body = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

/**
 * A proxy in front of the product that can fail tries: `lose` forwards the next request and answers 502 in place
 * of the product's answer (the call happened, its answer was lost); `refuse` answers 503 without forwarding.
 * Every request it saw is kept (method, path, nonce).
 */
function flakyProxy(target: string) {
  const seen: Array<{ method: string; path: string; nonce: string }> = [];
  const state = { lose: 0, refuse: 0 };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const raw = await body(req);
      seen.push({ method: req.method ?? '', path: req.url ?? '', nonce: String(req.headers['x-nonce']) });
      const fail = (status: number) =>
        res
          .writeHead(status, { 'content-type': 'application/problem+json' })
          .end(JSON.stringify({ type: 'about:blank', title: 'unavailable', status, detail: 'proxy', code: 'PROXY' }));
      if (state.refuse > 0) return void (state.refuse--, fail(503));
      const headers = Object.entries(req.headers).filter(([k]) => !['host', 'connection'].includes(k));
      const answer = await fetch(target + req.url, {
        method: req.method,
        headers: headers as Array<[string, string]>,
        body: raw.length ? raw : undefined,
      });
      const text = await answer.text();
      if (state.lose > 0) return void (state.lose--, fail(502));
      res.writeHead(answer.status, Object.fromEntries(answer.headers)).end(text);
    })();
  });
  return { server, seen, state };
}

/**
 * The typed client (docs/api.md "Typed client") as a user gets it, the BUILT package entry imported by its name
 * (`tickwheel/client`, package.json "exports"), against a real standalone product: typed calls, a typed 404
 * problem, retries through a flaky proxy (one logical call; a non-idempotent POST is not tried again), the
 * example of examples/client run as the README prints it, and a type check of every route from the built types.
 */
describe('typed client (tickwheel/client, built) against a standalone product', () => {
  let dir: string;
  let product: ProductProcess;
  let baseUrl: string;
  let creds: { appId: string; secret: string };
  let entry: ClientEntry;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tw-typed-client-'));
    const port = await freePort();
    product = startProcess({ DATA_DIR: dir, PORT: String(port) });
    baseUrl = `http://127.0.0.1:${port}`;
    await waitFor('the product to listen', async () => product.output().includes('listening on'), 30_000, 100);
    await waitFor('its first credentials', async () => existsSync(join(dir, 'credentials.json')), 30_000, 100);
    creds = JSON.parse(readFileSync(join(dir, 'credentials.json'), 'utf8')) as typeof creds;
    const name = 'tickwheel/client'; // resolved by Node's self-reference through package.json "exports"
    entry = (await import(name)) as ClientEntry;
  }, 60_000);

  afterAll(async () => {
    await product?.stop(10_000);
    rmSync(dir, { recursive: true, force: true });
  });

  it('should submit and read a task, list jobs, create, pause and resume a job, with typed answers', async () => {
    const { createTickwheelClient, unwrap } = entry;
    const c = createTickwheelClient({ baseUrl, ...creds });
    const accepted = unwrap(await c.POST('/api/tasks', { body: { requestId: 'typed-1', handler: 'noop' } }));
    expect(accepted).toMatchObject({ requestId: 'typed-1' });
    await waitFor(
      'the task to finish',
      async () => {
        const task = unwrap(await c.GET('/api/tasks/{requestId}', { params: { path: { requestId: 'typed-1' } } }));
        return task.status === 'SUCCESS';
      },
      30_000,
      100,
    );
    const job = unwrap(
      await c.POST('/api/jobs', {
        body: { code: 'typed-nightly', handler: 'noop', triggerType: 'CRON', triggerExpr: '0 3 * * *', enabled: true },
      }),
    );
    expect(job).toMatchObject({ code: 'typed-nightly', enabled: true });
    const path = { id: 'typed-nightly' };
    expect((await c.POST('/api/jobs/{id}/pause', { params: { path } })).response.status).toBe(200);
    expect(unwrap(await c.GET('/api/jobs/{id}', { params: { path } })).enabled).toBe(false);
    expect((await c.POST('/api/jobs/{id}/resume', { params: { path } })).response.status).toBe(200);
    expect(unwrap(await c.GET('/api/jobs/{id}', { params: { path } })).enabled).toBe(true);
    const list: unknown = (await c.GET('/api/jobs', { params: { query: { limit: 10 } } })).data;
    expect(list).toMatchObject({ total: 1, items: [expect.objectContaining({ code: 'typed-nightly' })] });
  });

  it('should answer an unknown job as a typed problem', async () => {
    const { createTickwheelClient, unwrap, ProblemError } = entry;
    const c = createTickwheelClient({ baseUrl, ...creds });
    const res = await c.GET('/api/jobs/{id}', { params: { path: { id: 'no-such-job' } } });
    expect(res.response.status).toBe(404);
    expect(res.error).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    let thrown: unknown;
    try {
      unwrap(res);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(ProblemError);
    expect(thrown).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('should make one logical call of a retried idempotent call, and not try a non-idempotent POST again', async () => {
    const proxy = flakyProxy(baseUrl);
    await new Promise<void>((r) => proxy.server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(proxy.server.address() as AddressInfo).port}`;
      const c = entry.createTickwheelClient({ baseUrl: url, ...creds, retryBaseDelayMs: 10 });
      proxy.state.lose = 1; // the product accepts the task, its answer is lost: the retry is answered as a replay
      const sent = await c.POST('/api/tasks', { body: { requestId: 'typed-retry', handler: 'noop' } });
      expect([sent.response.status, sent.data?.requestId]).toEqual([202, 'typed-retry']);
      expect(sent.response.headers.get('idempotent-replayed')).toBe('true');
      expect(proxy.seen).toHaveLength(2);
      expect(new Set(proxy.seen.map((s) => s.nonce)).size).toBe(2);
      proxy.state.refuse = 1;
      const read = await c.GET('/api/tasks/{requestId}', { params: { path: { requestId: 'typed-retry' } } });
      expect([read.response.status, proxy.seen.length]).toEqual([200, 4]);
      proxy.state.refuse = 1;
      const pause = await c.POST('/api/jobs/{id}/pause', { params: { path: { id: 'typed-nightly' } } });
      expect([pause.response.status, proxy.seen.length]).toEqual([200, 6]);
      proxy.state.refuse = 1;
      const once = await c.POST('/api/tasks', { body: { handler: 'noop' } });
      expect([once.response.status, proxy.seen.length]).toEqual([503, 7]);
    } finally {
      proxy.server.closeAllConnections();
      proxy.server.close();
    }
  });

  it('should run the example of examples/client as printed', async () => {
    const { stdout } = await run(process.execPath, ['examples/client/submit-and-poll.mjs', 'typed-example'], {
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dir, TICKWHEEL_URL: baseUrl },
      timeout: 30_000,
    });
    expect(stdout).toContain('submitted typed-example: ');
    expect(stdout).toMatch(/typed-example SUCCESS after 1 attempt\(s\): /);
  });

  it('should type-check a call of every route against the built types of tickwheel/client', async () => {
    const tsc = join(process.cwd(), 'node_modules/typescript/bin/tsc');
    await expect(
      run(process.execPath, [tsc, '-p', 'test/fixtures/client-package/tsconfig.json']),
    ).resolves.toBeTruthy();
  }, 60_000);
});
