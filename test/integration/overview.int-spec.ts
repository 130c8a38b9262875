import { DEFAULT_SCOPES, JobInstanceStatus as S, Scope } from '../../src/modules/metadata/index.js';
import { insertInstance, type RowOwner } from '../utils/instance-rows.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import { appClient, expectProblem } from '../utils/tenancy.js';
import {
  type AppClient,
  clusterEnv,
  standaloneEnv,
  startNode,
  type TestNode,
  uniqueNamespace,
} from '../utils/test-node.js';

const HOUR = 3_600_000;
const MIN = 60_000;
type Counts = Array<{ status: string; count: number }>;
type Overview = {
  windowStart: string;
  windowEnd: string;
  finished: Counts;
  failureRate: number | null;
  hourly: Array<{ hourStart: string; counts: Counts }>;
  running: number;
  runningNow: Array<Record<string, unknown>>;
  queued: Counts;
};
const count = (counts: Counts, status: string) => counts.find((c) => c.status === status)?.count;
/** Counts of every final status, in the answer's order. */
const finals = (success: number, failed: number, timeout: number, cancelled: number): Counts => [
  { status: 'SUCCESS', count: success },
  { status: 'FAILED', count: failed },
  { status: 'TIMEOUT', count: timeout },
  { status: 'CANCELLED', count: cancelled },
];

/**
 * GET /api/whoami and GET /api/overview (docs/api.md "Whoami", "Overview") on both shapes, against known rows: the
 * figures of each app, an admin's namespace-wide and filtered ones, and the refusals. No background loop touches
 * the rows: standalone reconciles once in ten minutes, the cluster node is api-only.
 */
describe.each([
  ['standalone (SQLite)', () => standaloneEnv({ LOG_LEVEL: 'error', RECONCILE_INTERVAL_MS: '600000' })],
  ['cluster (MariaDB + Redis)', () => clusterEnv(uniqueNamespace('int-ovw'), { LOG_LEVEL: 'error', ROLES: 'api' })],
])('whoami and overview (%s)', (_shape, env) => {
  let node: TestNode;
  let a: AppClient;
  let b: AppClient;
  let admin: AppClient;
  const now = Date.now();
  const at = (ms: number) => new Date(ms).toISOString();

  beforeAll(async () => {
    node = await startNode(env());
    [a, b, admin] = await Promise.all([
      appClient(node, 'ovw-a'),
      appClient(node, 'ovw-b'),
      appClient(node, 'ovw-admin', [Scope.ADMIN]),
    ]);
    const owner = (c: AppClient): RowOwner => ({ ns: node.config.namespace, appId: c.appId });
    const done = (c: AppClient, status: S, ago: number, jobId: string | null = null) =>
      insertInstance(node.ds, owner(c), now - ago - 1000, {
        status,
        jobId,
        startedAt: now - ago - 500,
        finishedAt: now - ago,
      });
    await done(a, S.SUCCESS, MIN);
    await done(a, S.SUCCESS, 10 * HOUR, '00000000-0000-7000-8000-0000000000j1');
    await done(a, S.SUCCESS, 10 * HOUR + MIN);
    await done(a, S.FAILED, 3 * HOUR);
    await done(a, S.TIMEOUT, 5 * HOUR, '00000000-0000-7000-8000-0000000000j1');
    await done(a, S.CANCELLED, 2 * HOUR);
    await done(a, S.SUCCESS, 30 * HOUR); // before the window
    await done(b, S.FAILED, HOUR);
    const running = { status: S.RUNNING, nodeId: 'ovw-node', leaseUntil: now + HOUR, attempt: 2 };
    await insertInstance(node.ds, owner(a), now - 10 * MIN, { ...running, startedAt: now - 5 * MIN });
    await insertInstance(node.ds, owner(a), now - 10 * MIN, {
      ...running,
      jobId: '00000000-0000-7000-8000-0000000000j1',
      jobCode: 'nightly',
      startedAt: now - MIN,
      progress: 0.25,
      progressNote: 'a quarter',
      progressAt: now - 30_000,
    });
    await insertInstance(node.ds, owner(a), now, { status: S.PENDING });
    await insertInstance(node.ds, owner(a), now, { status: S.PENDING });
    await insertInstance(node.ds, owner(a), now, { status: S.WAITING });
    await insertInstance(node.ds, owner(a), now, { status: S.DISPATCHED, nodeId: 'ovw-node' });
  }, 60_000);

  afterAll(async () => {
    if (node?.config.shape === 'cluster') await deleteNamespaceRows(node.ds, node.config.namespace);
    await node?.close();
  });

  const overview = async (c: AppClient, query = '') => {
    const res = await c.request<Overview>('GET', `/api/overview${query}`);
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
    return res.body;
  };

  it('should answer any signed caller who it is, with no scope at all too, and refuse a query parameter', async () => {
    expect((await a.request('GET', '/api/whoami')).body).toEqual({
      appId: a.appId,
      namespace: node.config.namespace,
      scopes: [...DEFAULT_SCOPES],
      admin: false,
    });
    expect((await admin.request('GET', '/api/whoami')).body).toMatchObject({ scopes: ['admin'], admin: true });
    const none = await appClient(node, 'ovw-none', []);
    expect(await none.request('GET', '/api/whoami')).toMatchObject({ status: 200, body: { scopes: [], admin: false } });
    expectProblem(await a.request('GET', '/api/whoami?appId=x'), 400, { field: 'appId' });
    const unsigned = await fetch(`${node.url}/api/whoami`);
    expect(unsigned.status).toBe(401);
  });

  it("should count an app's finished instances of the last 24 hours by status and hour, and its running and queued", async () => {
    const o = await overview(a);
    const start = Date.parse(o.windowStart);
    expect(start % HOUR).toBe(0);
    expect(Date.parse(o.windowEnd)).toBeGreaterThanOrEqual(now);
    expect(start).toBe(Date.parse(o.windowEnd) - (Date.parse(o.windowEnd) % HOUR) - 23 * HOUR);
    expect(o.finished).toEqual(finals(3, 1, 1, 1));
    expect(o.failureRate).toBeCloseTo(2 / 5, 10);
    expect(o.hourly).toHaveLength(24);
    expect(o.hourly.map((h) => Date.parse(h.hourStart))).toEqual(
      Array.from({ length: 24 }, (_, i) => start + i * HOUR),
    );
    const bucketOf = (ago: number) => o.hourly[Math.floor((now - ago - start) / HOUR)].counts;
    expect(count(bucketOf(3 * HOUR), 'FAILED')).toBe(1);
    expect(count(bucketOf(5 * HOUR), 'TIMEOUT')).toBe(1);
    expect(count(bucketOf(2 * HOUR), 'CANCELLED')).toBe(1);
    expect(count(bucketOf(MIN), 'SUCCESS')).toBeGreaterThanOrEqual(1);
    for (const status of ['SUCCESS', 'FAILED', 'TIMEOUT', 'CANCELLED'])
      expect(o.hourly.reduce((n, h) => n + (count(h.counts, status) as number), 0)).toBe(count(o.finished, status));
    expect(o.running).toBe(2);
    expect(o.runningNow).toHaveLength(2);
    expect(o.runningNow[0]).toEqual({
      instanceId: expect.any(String),
      requestId: expect.any(String),
      appId: a.appId,
      jobId: '00000000-0000-7000-8000-0000000000j1',
      jobCode: 'nightly',
      handler: 'h',
      nodeId: 'ovw-node',
      attempt: 2,
      startedAt: at(now - MIN),
      progress: 0.25,
      progressNote: 'a quarter',
      progressAt: at(now - 30_000),
    });
    expect(o.runningNow[1]).toMatchObject({ jobId: null, jobCode: null, startedAt: at(now - 5 * MIN), progress: null });
    expect(o.queued).toEqual([
      { status: 'PENDING', count: 2 },
      { status: 'WAITING', count: 1 },
      { status: 'DISPATCHED', count: 1 },
    ]);
  });

  it("should show another app only its own rows, an admin the namespace's or one app's, and null with nothing finished", async () => {
    const ofB = await overview(b);
    expect(ofB).toMatchObject({ finished: finals(0, 1, 0, 0), failureRate: 1, running: 0, runningNow: [] });
    expect(ofB.queued.map((q) => q.count)).toEqual([0, 0, 0]);
    const all = await overview(admin);
    expect(all).toMatchObject({ finished: finals(3, 2, 1, 1), running: 2 });
    expect(all.failureRate).toBeCloseTo(3 / 6, 10);
    expect(await overview(admin, `?appId=${b.appId}`)).toMatchObject({ finished: finals(0, 1, 0, 0), running: 0 });
    const fresh = await overview(await appClient(node, 'ovw-fresh'));
    expect(fresh).toMatchObject({ finished: finals(0, 0, 0, 0), failureRate: null, running: 0 });
    expect(fresh.hourly.every((h) => h.counts.every((c) => c.count === 0))).toBe(true);
  });

  it("should refuse another app's figures to a non-admin (403 naming admin), a bad appId, and a caller without tasks:read", async () => {
    expectProblem(await b.request('GET', `/api/overview?appId=${a.appId}`), 403, { scope: 'admin' });
    expectProblem(await a.request('GET', '/api/overview?appId=x'), 400, { field: 'appId' });
    expectProblem(await a.request('GET', '/api/overview?window=48'), 400, { field: 'window' });
    const jobsOnly = await appClient(node, 'ovw-jobs', [Scope.JOBS_READ]);
    expectProblem(await jobsOnly.request('GET', '/api/overview'), 403, { scope: 'tasks:read' });
  });
});
