import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as netServer } from 'node:net';
import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { DEFAULT_SCOPES, Scope } from '../../src/modules/metadata/index.js';
import { sleep } from '../utils/async.js';
import { startProcess, type ProductProcess } from '../utils/process-node.js';
import { appClient, expectProblem, SHAPES } from '../utils/tenancy.js';
import { type AppClient, clusterEnv, startNode, TestNode, uniqueNamespace, waitFor } from '../utils/test-node.js';

type JobView = { id: string; enabled: boolean; pausedReason: string | null };

/** A receiver of the `http` handler's calls, with when each came (epoch ms). */
async function hitReceiver(): Promise<{ url: string; hits: number[]; close(): void }> {
  const hits: number[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(Date.now());
    req.resume();
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hit`;
  return { url, hits, close: () => (server.closeAllConnections(), server.close()) };
}

/** The status of instance `requestId`, read from the database (its app cannot call while disabled). */
async function taskStatus(node: TestNode, requestId: string): Promise<string | undefined> {
  const rows: Array<{ status: string }> = await node.ds.query('SELECT status FROM job_instance WHERE request_id = ?', [
    requestId,
  ]);
  return rows[0]?.status;
}

/**
 * A disabled client stops everywhere (SECURITY.md "What is in place", docs/tenancy.md "Disabled clients"): its jobs
 * are paused by the system (CLIENT_DISABLED) and resumed when it is enabled again, without a burst of missed fires;
 * its waiting work does not start; its workers are refused, and a long poll in flight gets nothing.
 */
describe.each(SHAPES)('disabled client (%s)', (_shape, env) => {
  let node: TestNode;
  let admin: AppClient;
  let receiver: Awaited<ReturnType<typeof hitReceiver>>;
  const setEnabled = async (appId: string, enabled: boolean) =>
    expect((await admin.request('PATCH', `/api/clients/${appId}`, { enabled })).status).toBe(200);

  beforeAll(async () => {
    receiver = await hitReceiver();
    // Fires more than 1 s late are misfires, so the ~4 s of fires missed while disabled go to the SKIP policy.
    node = await startNode(env({ MISFIRE_THRESHOLD_MS: '1000' }));
    admin = await appClient(node, 'dc-admin', [Scope.ADMIN]);
  }, 60_000);
  afterAll(async () => {
    await node?.close();
    receiver?.close();
  });

  it("[tenancy] a disabled client's http job stops firing, cannot be resumed, and resumes without a burst", async () => {
    const app = await appClient(node, 'dc-job');
    const created = await app.request<JobView>('POST', '/api/jobs', {
      code: 'every-second',
      handler: 'http',
      params: { url: receiver.url, method: 'GET' },
      triggerType: 'FIXED_RATE',
      triggerExpr: '1000',
      misfirePolicy: 'SKIP',
    });
    expect(created.status).toBe(201);
    const job = `/api/jobs/${created.body.id}`;
    const mine = await app.request<JobView>('POST', '/api/jobs', {
      code: 'paused-by-me',
      handler: 'noop',
      triggerType: 'FIXED_RATE',
      triggerExpr: '1000',
      enabled: false,
    });
    await waitFor('two calls of the job', async () => receiver.hits.length >= 2, 10_000, 50);

    await setEnabled(app.appId, false);
    const disabledAt = Date.now();
    expectProblem(await app.request('GET', job), 401);
    const view = await admin.request<JobView>('GET', job);
    expect(view.body).toMatchObject({ enabled: false, pausedReason: 'CLIENT_DISABLED' });
    expect((await admin.request<JobView>('GET', `/api/jobs/${mine.body.id}`)).body.pausedReason).toBeNull();
    // Nobody resumes it while the client is disabled: its fires could only wait.
    expectProblem(await admin.request('POST', `${job}/resume`), 409, { field: 'enabled' });
    expectProblem(await admin.request('PATCH', job, { enabled: true }), 409, { field: 'enabled' });
    await sleep(1500); // a fire released before the pause may still end
    const settled = receiver.hits.length;
    await sleep(3000);
    expect(receiver.hits.length).toBe(settled);
    expect(receiver.hits.filter((t) => t > disabledAt + 1500)).toEqual([]);

    await setEnabled(app.appId, true);
    const enabledAt = Date.now();
    expect((await app.request<JobView>('GET', job)).body).toMatchObject({ enabled: true, pausedReason: null });
    // The job the user paused itself stays paused.
    expect((await app.request<JobView>('GET', `/api/jobs/${mine.body.id}`)).body.enabled).toBe(false);
    await waitFor('a call after the enable', async () => receiver.hits.length > settled, 5000, 50);
    await sleep(2000);
    // SKIP: the fires missed while disabled are recorded, not run; ~1 call a second, not the ~4 missed at once.
    const after = receiver.hits.filter((t) => t >= enabledAt);
    expect(after.length).toBeGreaterThanOrEqual(1);
    expect(after.length).toBeLessThanOrEqual(4);
    expect(after.filter((t) => t < enabledAt + 900).length).toBeLessThanOrEqual(1);
    const skipped: Array<{ n: string | number }> = await node.ds.query(
      "SELECT COUNT(*) AS n FROM job_instance WHERE job_id = ? AND status = 'CANCELLED' AND trigger_source = 'MISFIRE'",
      [created.body.id],
    );
    expect(Number(skipped[0].n)).toBeGreaterThanOrEqual(2);
    expect((await app.request('POST', `${job}/pause`)).status).toBe(200);
  }, 40_000);

  it("[tenancy] a disabled client's waiting task does not start, stays PENDING, and runs once enabled", async () => {
    const app = await appClient(node, 'dc-task');
    const requestId = `dc-wait-${Date.now()}`;
    expect((await app.submitTask({ requestId, handler: 'noop', delayMs: 1500 })).status).toBe(202);
    await setEnabled(app.appId, false);
    await sleep(3500);
    expect(await taskStatus(node, requestId)).toBe('PENDING');
    await setEnabled(app.appId, true);
    await waitFor('the task to run', async () => (await taskStatus(node, requestId)) === 'SUCCESS', 10_000, 100);
  }, 30_000);

  it("[tenancy] a disabled client's worker is refused, and its long poll in flight gets no work", async () => {
    const app = await appClient(node, 'dc-worker', [...DEFAULT_SCOPES, Scope.WORKER]);
    const reg = await app.request<{ nodeId: string }>('POST', '/api/worker/nodes', { handlers: ['dc.h'], capacity: 1 });
    expect(reg.status).toBe(201);
    const base = `/api/worker/nodes/${reg.body.nodeId}`;
    expect((await app.request('POST', `${base}/heartbeat`, { active: 0 })).status).toBe(204);
    const requestId = `dc-wk-${Date.now()}`;
    expect((await app.submitTask({ requestId, handler: 'dc.h', delayMs: 1000 })).status).toBe(202);
    const poll = app.request<{ items: unknown[] }>('POST', `${base}/claims`, { max: 1, waitMs: 4000 });
    await sleep(200);
    await setEnabled(app.appId, false);
    const answer = await poll;
    expect(answer.body.items ?? []).toEqual([]);
    expect(await taskStatus(node, requestId)).toBe('PENDING');
    for (const [path, body] of [
      ['/api/worker/nodes', { handlers: ['dc.h'], capacity: 1 }],
      [`${base}/heartbeat`, { active: 0 }],
      [`${base}/claims`, { max: 1, waitMs: 0 }],
      [`${base}/leases`, { attempts: [] }],
      [`${base}/finishes`, { items: [] }],
    ] as const)
      expectProblem(await app.request('POST', path, body), 401);
    await setEnabled(app.appId, true);
    // Its node may have gone offline meanwhile (its beats were refused): a worker registers again, as the SDK does.
    const again = await app.request<{ nodeId: string }>('POST', '/api/worker/nodes', {
      handlers: ['dc.h'],
      capacity: 1,
    });
    expect(again.status).toBe(201);
    const next = `/api/worker/nodes/${again.body.nodeId}`;
    await waitFor(
      'the worker to get the task',
      async () => {
        await app.request('POST', `${next}/heartbeat`, { active: 0 });
        const c = await app.request<{ items: Array<{ requestId: string }> }>('POST', `${next}/claims`, {
          max: 1,
          waitMs: 500,
        });
        return c.body.items?.some((i) => i.requestId === requestId) ?? false;
      },
      15_000,
      100,
    );
  }, 40_000);
});

async function freePort(): Promise<number> {
  const srv = netServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/**
 * Two api processes (cluster): a change made on one reaches the other at once through the clients-changed message,
 * not after its 30-s client cache.
 */
describe('disabled or rotated client on a second api process', () => {
  const ns = uniqueNamespace('e2e-dc2');
  let node: TestNode;
  const procs: ProductProcess[] = [];
  const urls: string[] = [];

  beforeAll(async () => {
    node = await startNode(clusterEnv(ns, { LOG_LEVEL: 'error' }));
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      const p = startProcess({ ...clusterEnv(ns), ROLES: 'api', PORT: String(port), HOST: '127.0.0.1' });
      procs.push(p);
      urls.push(`http://127.0.0.1:${port}`);
    }
    for (const url of urls)
      await waitFor(
        'an api process to answer',
        async () => (await fetch(`${url}/health/live`).catch(() => null))?.ok === true,
        30_000,
        100,
      );
  }, 60_000);
  afterAll(async () => {
    for (const p of procs) await p.stop(5000);
    await node?.close();
  });

  const on = (url: string, c: { appId: string; secret: string }) =>
    new TickwheelClient({ baseUrl: url, appId: c.appId, secret: c.secret });
  /** How long after `since` a GET /api/jobs of `client` on `url` first answered `status` (ms). */
  const until = async (client: TickwheelClient, status: number, since: number) => {
    await waitFor(`a ${status}`, async () => (await client.request('GET', '/api/jobs')).status === status, 5000, 20);
    return Date.now() - since;
  };

  it('[signing] a rotated secret is refused on the other api at once, the new one works there; same for disable', async () => {
    const adminCreds = await appClient(node, 'dc2-admin', [Scope.ADMIN]);
    const x = await appClient(node, 'dc2-x');
    const admin1 = on(urls[0], adminCreds);
    const old2 = on(urls[1], x);
    expect((await old2.request('GET', '/api/jobs')).status).toBe(200); // cached on api 2 now

    const rotated = await admin1.request<{ secret: string }>('POST', `/api/clients/${x.appId}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const since = Date.now();
    expect(await until(old2, 401, since)).toBeLessThan(1000);
    const new2 = on(urls[1], { appId: x.appId, secret: rotated.body.secret });
    expect((await new2.request('GET', '/api/jobs')).status).toBe(200);

    expect((await admin1.request('PATCH', `/api/clients/${x.appId}`, { enabled: false })).status).toBe(200);
    expect(await until(new2, 401, Date.now())).toBeLessThan(1000);
  }, 60_000);
});
