import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SCOPES, Scope } from '../../src/modules/metadata/index.js';
import { type ProductProcess, startCommand } from '../utils/process-node.js';
import {
  type AppClient,
  clusterEnv,
  signedClient,
  startNode,
  type TestNode,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';

/** The api's MAX_RUN_TIME_MS: the timeoutMs a HEARTBEAT attempt is claimed with (docs/long-tasks.md). */
const MAX_RUN_TIME_MS = 600_000;
/** The `worker` scope (docs/workers.md "Tenancy"). */
const WORKER_SCOPES = [...DEFAULT_SCOPES, Scope.WORKER];
const CHILD = 'test/fixtures/worker/worker-child.mjs';

type Body = Record<string, unknown>;
type Attempt = Body & { instanceId: string; requestId: string; fencingToken: number };

/** A worker child process (the SDK from dist/) signing as `app`; its stdout JSON events are parsed on demand. */
function startWorker(api: TestNode, app: AppClient, extra: Record<string, string> = {}): ProductProcess {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    TICKWHEEL_URL: api.url,
    TICKWHEEL_APP_ID: app.appId,
    TICKWHEEL_SECRET: app.secret,
    WORKER_CONCURRENCY: '4',
    WORKER_DRAIN_GRACE_MS: '2000',
    ...extra,
  };
  return startCommand([process.execPath, CHILD], env);
}

/** The fixture's JSON events in `child`'s output. */
function events(child: ProductProcess): Body[] {
  return child
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{"fixture":true'))
    .map((l) => JSON.parse(l) as Body);
}

/**
 * The worker protocol's conformance suite (docs/workers.md): the documented steps as raw signed HTTP against a live
 * api (cluster shape: MariaDB + Redis), then the TypeScript SDK (`tickwheel/worker` from dist/, in child processes):
 * its tasks end SUCCESS, a checkpointing task whose worker is SIGKILLed resumes on another worker from its
 * checkpoint, another app's task for the same handler name never reaches it, and the entry loads no database or
 * Redis package. A worker in another language can be checked against the raw steps.
 */
describe('worker protocol (docs/workers.md)', () => {
  const ns = uniqueNamespace('e2e-wproto');
  let api: TestNode;
  let app: AppClient;
  const children: ProductProcess[] = [];

  beforeAll(async () => {
    api = await startNode(
      clusterEnv(ns, {
        ROLES: 'api,scheduler',
        LEASE_MS: '4000',
        LEASE_RENEW_MS: '1000',
        HEARTBEAT_INTERVAL_MS: '500',
        NODE_OFFLINE_AFTER_MS: '3000',
        RECONCILE_INTERVAL_MS: '1000',
        MAX_RUN_TIME_MS: String(MAX_RUN_TIME_MS),
      }),
    );
    app = await signedClient(api, `wproto-${randomUUID().slice(0, 8)}`, WORKER_SCOPES);
  }, 60_000);

  afterEach(async () => {
    await Promise.all(children.splice(0).map((c) => c.stop(5_000)));
  });

  afterAll(async () => {
    await api?.close();
  });

  const task = (client: AppClient, handler: string, params: unknown, extra: Body = {}) =>
    client.submitTask({ requestId: `wp-${randomUUID()}`, handler, params, ...extra });
  const statusOf = async (client: AppClient, requestId: string) => (await client.getTask(requestId)).body;
  const ended = (client: AppClient, requestId: string, timeoutMs = 30_000) =>
    waitFor(
      `${requestId} to end`,
      async () =>
        ['SUCCESS', 'FAILED', 'CANCELLED', 'TIMEOUT'].includes(String((await statusOf(client, requestId)).status)),
      timeoutMs,
    );

  it('runs the documented steps as raw signed HTTP: register, claim, lease, report, finish, deregister', async () => {
    const other = await signedClient(api, `wproto-noscope-${randomUUID().slice(0, 8)}`);
    const refused = await other.request('POST', '/api/worker/nodes', { handlers: ['conf.raw'], capacity: 1 });
    expect(refused.status).toBe(403);
    const builtin = await app.request<Body>('POST', '/api/worker/nodes', { handlers: ['noop'], capacity: 1 });
    expect(builtin.status).toBe(400);
    expect(builtin.body.field).toBe('handlers');

    const reg = await app.request<Body>('POST', '/api/worker/nodes', {
      handlers: ['conf.raw'],
      capacity: 2,
      host: 'raw',
    });
    expect(reg.status).toBe(201);
    expect(reg.body).toEqual({
      nodeId: expect.any(String),
      heartbeatIntervalMs: expect.any(Number),
      leaseMs: 4000,
      leaseRenewMs: 1000,
      nodeTimeoutMs: 3000,
      maxClaimWaitMs: expect.any(Number),
    });
    const node = `/api/worker/nodes/${String(reg.body.nodeId)}`;
    expect((await app.request('POST', `${node}/heartbeat`, { active: 0 })).status).toBe(204);
    // A worker beats all along: these steps may outlast nodeTimeoutMs (3 s) on a loaded machine (CI saw a 404 below).
    const beat = setInterval(() => void app.request('POST', `${node}/heartbeat`, { active: 0 }).catch(() => 0), 500);
    beat.unref();
    const submitted = await task(app, 'conf.raw', { n: 1 });
    expect(submitted.status).toBe(202);
    const { requestId } = submitted.body;
    const claim = await app.request<{ items: Attempt[] }>('POST', `${node}/claims`, { max: 2, waitMs: 5000 });
    expect(claim.status).toBe(200);
    expect(claim.body.items).toHaveLength(1);
    const a = claim.body.items[0];
    expect(a).toMatchObject({ requestId, appId: app.appId, handler: 'conf.raw', params: { n: 1 }, attempt: 1 });
    for (const k of [
      'jobCode',
      'maxAttempts',
      'leaseUntil',
      'timeoutMs',
      'heartbeatTimeoutMs',
      'shardIndex',
      'shardTotal',
    ]) {
      expect(a).toHaveProperty(k);
    }
    expect(a).toMatchObject({ fireTime: expect.any(Number), traceId: expect.any(String), lastCheckpoint: null });
    const at = `${node}/attempts/${a.instanceId}`;
    const token = a.fencingToken;

    const leases = await app.request<Body>('POST', `${node}/leases`, {
      attempts: [{ instanceId: a.instanceId, fencingToken: token }],
    });
    expect(leases.status).toBe(200);
    expect(leases.body).toEqual({ leaseUntil: expect.any(Number), lost: [] });
    expect((await app.request('POST', `${at}/checkpoint`, { fencingToken: token, state: { step: 1 } })).status).toBe(
      204,
    );
    expect(
      (await app.request('POST', `${at}/checkpoint`, { fencingToken: token - 1, state: { step: 9 } })).status,
    ).toBe(409);
    expect(
      (await app.request('POST', `${at}/progress`, { fencingToken: token, fraction: 0.5, note: 'half' })).status,
    ).toBe(204);
    const line = { level: 'info', message: 'raw line', at: Date.now() };
    expect((await app.request('POST', `${at}/logs`, { fencingToken: token, lines: [line] })).status).toBe(204);
    expect((await app.request('POST', `${at}/finish`, { fencingToken: token - 1, outcome: 'SUCCESS' })).status).toBe(
      409,
    );
    const fin = await app.request<Body>('POST', `${at}/finish`, {
      fencingToken: token,
      outcome: 'SUCCESS',
      result: { ok: 1 },
    });
    expect(fin.status).toBe(200);
    expect(fin.body).toEqual({ status: 'SUCCESS', final: true });
    expect((await app.request('POST', `${at}/finish`, { fencingToken: token, outcome: 'SUCCESS' })).status).toBe(409);
    expect(await statusOf(app, requestId)).toMatchObject({ status: 'SUCCESS', result: { ok: 1 } });
    const logs = await app.request<{ items: Body[] }>('GET', `/api/tasks/${requestId}/logs`);
    expect(logs.body.items.map((l) => l.line)).toEqual(['raw line']);

    // another app never sees this node
    const stranger = await signedClient(api, `wproto-other-${randomUUID().slice(0, 8)}`, WORKER_SCOPES);
    expect((await stranger.request('POST', `${node}/heartbeat`, { active: 0 })).status).toBe(404);
    clearInterval(beat);
    expect((await app.request('DELETE', node)).status).toBe(204);
    expect((await app.request('POST', `${node}/heartbeat`, { active: 0 })).status).toBe(404);
  }, 60_000);

  it('the SDK runs its tasks to SUCCESS and drains on SIGTERM', async () => {
    const w = startWorker(api, app);
    children.push(w);
    await waitFor('the worker to register', async () => events(w).some((e) => e.event === 'started'), 30_000);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await task(app, 'conf.echo', { i })).body.requestId);
    for (const id of ids) await ended(app, id);
    for (const [i, id] of ids.entries()) {
      expect(await statusOf(app, id)).toMatchObject({
        status: 'SUCCESS',
        result: { echo: { i }, appId: app.appId, attempt: 1 },
      });
    }
    const logs = await app.request<{ items: Body[] }>('GET', `/api/tasks/${ids[0]}/logs`);
    expect(logs.body.items.map((l) => l.line)).toEqual(['echo {"i":0}']);
    await w.stop(10_000);
    expect(await w.exited).toBe(0);
    expect(events(w).some((e) => e.event === 'stopped')).toBe(true);
  }, 90_000);

  it('claims a HEARTBEAT attempt with MAX_RUN_TIME_MS as its timeoutMs, and records its TIMEOUT as that bound', async () => {
    const reg = await app.request<Body>('POST', '/api/worker/nodes', { handlers: ['conf.modes'], capacity: 2 });
    expect(reg.status).toBe(201);
    const node = `/api/worker/nodes/${String(reg.body.nodeId)}`;
    const soft = await task(
      app,
      'conf.modes',
      {},
      { timeoutMode: 'HEARTBEAT', heartbeatTimeoutMs: 1000, timeoutMs: 1500 },
    );
    const hard = await task(app, 'conf.modes', {}, { timeoutMs: 1500 });
    const got: Attempt[] = [];
    await waitFor('both attempts claimed', async () => {
      const claim = await app.request<{ items: Attempt[] }>('POST', `${node}/claims`, { max: 2, waitMs: 1000 });
      got.push(...claim.body.items);
      return got.length === 2;
    });
    const byId = new Map(got.map((a) => [a.requestId, a]));
    const [s, h] = [byId.get(soft.body.requestId)!, byId.get(hard.body.requestId)!];
    expect(s).toMatchObject({ timeoutMode: 'HEARTBEAT', timeoutMs: MAX_RUN_TIME_MS, heartbeatTimeoutMs: 1000 });
    expect(h).toMatchObject({ timeoutMode: 'HARD', timeoutMs: 1500, heartbeatTimeoutMs: 0 });
    for (const a of [s, h]) {
      const fin = await app.request<Body>('POST', `${node}/attempts/${a.instanceId}/finish`, {
        fencingToken: a.fencingToken,
        outcome: 'TIMEOUT',
      });
      expect(fin.body).toEqual({ status: 'TIMEOUT', final: true });
    }
    expect(await statusOf(app, s.requestId)).toMatchObject({
      status: 'TIMEOUT',
      error: `MAX_RUN_TIME_MS: still running after the longest run allowed, ${MAX_RUN_TIME_MS} ms`,
    });
    expect(await statusOf(app, h.requestId)).toMatchObject({ status: 'TIMEOUT', error: 'timed out after 1500 ms' });
    expect((await app.request('DELETE', node)).status).toBe(204);
  }, 60_000);

  it('records the TIMEOUT of an attempt its worker still renews a lease past its run limit, and answers it lost', async () => {
    const reg = await app.request<Body>('POST', '/api/worker/nodes', { handlers: ['conf.hung'], capacity: 1 });
    const node = `/api/worker/nodes/${String(reg.body.nodeId)}`;
    const { requestId } = (await task(app, 'conf.hung', {}, { timeoutMs: 1000 })).body;
    const claim = await app.request<{ items: Attempt[] }>('POST', `${node}/claims`, { max: 1, waitMs: 5000 });
    const a = claim.body.items[0];
    expect(a).toMatchObject({ requestId, timeoutMs: 1000 });
    const ref = { instanceId: a.instanceId, fencingToken: a.fencingToken };
    let lost: unknown[] = [];
    // a hung worker: it renews its lease and never times the attempt out; one lease (4 s) past 1 s it is ended
    await waitFor(
      'the lease answered lost',
      async () => {
        expect((await app.request('POST', `${node}/heartbeat`, { active: 1 })).status).toBe(204); // the node lives
        const leases = await app.request<{ lost: unknown[] }>('POST', `${node}/leases`, { attempts: [ref] });
        expect(leases.status).toBe(200);
        lost = leases.body.lost;
        return lost.length > 0;
      },
      20_000,
      500,
    );
    expect(lost).toEqual([{ ...ref, reason: 'LEASE_LOST' }]);
    expect(await statusOf(app, requestId)).toMatchObject({ status: 'TIMEOUT', error: 'timed out after 1000 ms' });
    const late = { fencingToken: a.fencingToken, outcome: 'SUCCESS' };
    expect((await app.request('POST', `${node}/attempts/${a.instanceId}/finish`, late)).status).toBe(409);
    expect((await app.request('DELETE', node)).status).toBe(204);
  }, 60_000);

  it('the SDK lets a checkpointing task outrun its timeoutMs under HEARTBEAT, and ends it under HARD', async () => {
    const w = startWorker(api, app, { RESUME_STEPS: '20', RESUME_STEP_MS: '150' });
    children.push(w);
    await waitFor('the worker to register', async () => events(w).some((e) => e.event === 'started'), 30_000);
    // 20 checkpoints 150 ms apart: 3 s, twice its timeoutMs, never silent for its heartbeatTimeoutMs
    const limits = { timeoutMs: 1500, heartbeatTimeoutMs: 1000, maxAttempts: 1 };
    const soft = (await task(app, 'conf.resume', {}, { ...limits, timeoutMode: 'HEARTBEAT' })).body.requestId;
    const hard = (await task(app, 'conf.resume', {}, limits)).body.requestId;
    await ended(app, soft);
    await ended(app, hard);
    expect(await statusOf(app, soft)).toMatchObject({ status: 'SUCCESS', result: { steps: 20, resumedFrom: 0 } });
    expect(await statusOf(app, hard)).toMatchObject({ status: 'TIMEOUT', error: 'timed out after 1500 ms' });
  }, 90_000);

  it('a checkpointing task whose worker is SIGKILLed resumes on a second worker from its checkpoint', async () => {
    const first = startWorker(api, app, { RESUME_STEPS: '30', RESUME_STEP_MS: '150' });
    children.push(first);
    await waitFor('worker 1 to register', async () => events(first).some((e) => e.event === 'started'), 30_000);
    const { requestId } = (await task(app, 'conf.resume', {}, { maxAttempts: 3, retryBackoffMs: 100 })).body;
    await waitFor(
      '3 checkpoints',
      async () => events(first).some((e) => e.event === 'step' && Number(e.step) >= 3),
      30_000,
    );
    first.signal('SIGKILL');
    await first.exited;
    const lastStep = Math.max(
      ...events(first)
        .filter((e) => e.event === 'step')
        .map((e) => Number(e.step)),
    );

    const second = startWorker(api, app, { RESUME_STEPS: '30', RESUME_STEP_MS: '20' });
    children.push(second);
    await ended(app, requestId, 60_000);
    const view = await statusOf(app, requestId);
    expect(view).toMatchObject({ status: 'SUCCESS' });
    const result = view.result as { resumedFrom: number; attempt: number };
    expect(result.attempt).toBeGreaterThanOrEqual(2);
    // from the last checkpoint the first worker printed as stored (it may have stored one more before dying)
    expect(result.resumedFrom).toBeGreaterThanOrEqual(lastStep);
    expect(result.resumedFrom).toBeLessThanOrEqual(lastStep + 1);
    expect(events(second).find((e) => e.event === 'start')).toMatchObject({ requestId, from: result.resumedFrom });
  }, 120_000);

  it('SIGTERM mid-task hands the attempt back (SHUTDOWN) and another worker finishes it from its checkpoint', async () => {
    const first = startWorker(api, app, { RESUME_STEPS: '40', RESUME_STEP_MS: '150', WORKER_DRAIN_GRACE_MS: '300' });
    children.push(first);
    await waitFor('worker 1 to register', async () => events(first).some((e) => e.event === 'started'), 30_000);
    const { requestId } = (await task(app, 'conf.resume', {}, { maxAttempts: 1 })).body;
    await waitFor(
      '2 checkpoints',
      async () => events(first).some((e) => e.event === 'step' && Number(e.step) >= 2),
      30_000,
    );
    first.signal('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(events(first).some((e) => e.event === 'stopped')).toBe(true);
    // handed back, not failed: with maxAttempts 1 a counted failure would have ended it FAILED
    expect(['PENDING', 'DISPATCHED', 'RUNNING']).toContain(String((await statusOf(app, requestId)).status));

    const second = startWorker(api, app, { RESUME_STEPS: '40', RESUME_STEP_MS: '10' });
    children.push(second);
    await ended(app, requestId, 60_000);
    const view = await statusOf(app, requestId);
    expect(view).toMatchObject({ status: 'SUCCESS' });
    expect((view.result as { resumedFrom: number }).resumedFrom).toBeGreaterThanOrEqual(2);
  }, 120_000);

  it("another app's task for the same handler name never reaches the worker", async () => {
    const w = startWorker(api, app);
    children.push(w);
    await waitFor('the worker to register', async () => events(w).some((e) => e.event === 'started'), 30_000);
    // app B runs its own (raw) worker node for conf.echo, so its tasks are accepted and routed there
    const b = await signedClient(api, `wproto-b-${randomUUID().slice(0, 8)}`, WORKER_SCOPES);
    const reg = await b.request<Body>('POST', '/api/worker/nodes', { handlers: ['conf.echo'], capacity: 10 });
    expect(reg.status).toBe(201);
    const node = `/api/worker/nodes/${String(reg.body.nodeId)}`;
    const bIds: string[] = [];
    for (let i = 0; i < 5; i++) bIds.push((await task(b, 'conf.echo', { b: i })).body.requestId);
    const aId = (await task(app, 'conf.echo', { a: 1 })).body.requestId;
    const claimed: Attempt[] = [];
    await waitFor(
      "app B's tasks claimed by its own node",
      async () => {
        const c = await b.request<{ items: Attempt[] }>('POST', `${node}/claims`, { max: 10, waitMs: 1000 });
        await b.request('POST', `${node}/heartbeat`, { active: claimed.length + c.body.items.length });
        claimed.push(...c.body.items);
        return claimed.length >= bIds.length;
      },
      30_000,
    );
    expect(claimed.map((c) => c.requestId).sort()).toEqual([...bIds].sort());
    expect(claimed.every((c) => c.appId === b.appId)).toBe(true);
    await ended(app, aId);
    const ran = events(w).filter((e) => e.event === 'ran');
    expect(ran.map((e) => e.requestId)).toContain(aId);
    expect(ran.filter((e) => bIds.includes(String(e.requestId)))).toEqual([]);
    expect(ran.every((e) => e.appId === app.appId)).toBe(true);
    for (const c of claimed) {
      await b.request('POST', `${node}/attempts/${c.instanceId}/finish`, {
        fencingToken: c.fencingToken,
        outcome: 'SUCCESS',
      });
    }
    expect((await b.request('DELETE', node)).status).toBe(204);
  }, 90_000);

  it('tickwheel/worker loads no database driver, TypeORM, better-sqlite3 or Redis client', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw-loads-'));
    const file = join(dir, 'loads.txt');
    try {
      const child = startCommand([process.execPath, '--import', './test/fixtures/worker/record-loads.mjs', CHILD], {
        PATH: process.env.PATH ?? '',
        LOADS_FILE: file,
        WORKER_IMPORT_ONLY: '1',
      });
      expect(await child.exited).toBe(0);
      const esm = readFileSync(file, 'utf8').split('\n').filter(Boolean);
      const cjs = (events(child).find((e) => e.event === 'loaded')?.cjs ?? []) as string[];
      expect(esm.some((u) => u.includes('/dist/src/worker/index.js'))).toBe(true);
      const heavy = /node_modules\/(mysql2|typeorm|@nestjs\/typeorm|better-sqlite3|ioredis|@liaoliaots)\//;
      expect([...esm, ...cjs].filter((p) => heavy.test(p))).toEqual([]);
      expect(
        [...esm, ...cjs].filter((p) => /\/dist\/src\/modules\/(metadata|execution|coordination)\//.test(p)),
      ).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
