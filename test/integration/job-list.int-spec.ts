import { JobInstanceStatus as S, Scope } from '../../src/modules/metadata/index.js';
import { insertInstance } from '../utils/instance-rows.js';
import { createJob, type JobView } from '../utils/jobs.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import { appClient, expectProblem, SHAPES } from '../utils/tenancy.js';
import { type AppClient, executorsBeat, startNode, type TestNode } from '../utils/test-node.js';

type Page = { total: number; items: JobView[] };
const T0 = Date.UTC(2026, 0, 10, 12, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * GET /api/jobs's search (`q`), `enabled` filter and order, and every job view's `lastRun` (docs/api.md "Jobs"), on
 * both shapes. Instances are inserted (final, or PENDING due in a day): the jobs never fire during the test.
 */
describe.each(SHAPES)('job list and lastRun (%s)', (_shape, env) => {
  let node: TestNode;
  let a: AppClient;
  let b: AppClient;
  let admin: AppClient;
  const jobs: Record<string, JobView> = {};

  beforeAll(async () => {
    node = await startNode(env());
    if (node.config.shape === 'cluster') await executorsBeat(node, 1); // an enabled noop job needs a live executor
    [a, b, admin] = await Promise.all([
      appClient(node, 'jl-a'),
      appClient(node, 'jl-b'),
      appClient(node, 'jl-admin', [Scope.ADMIN]),
    ]);
    jobs.report = await createJob(a, { code: 'nightly-report', description: 'Builds the SALES digest' });
    jobs.mail = await createJob(a, { code: 'mail_out', handler: 'noop', enabled: false });
    jobs.pct = await createJob(a, { code: 'a100pct', description: '100% of the rows' });
    jobs.other = await createJob(b, { code: 'nightly-report' });
    const ns = node.config.namespace;
    const fire = (ms: number, patch: Parameters<typeof insertInstance>[3]) =>
      insertInstance(node.ds, { ns, appId: a.appId }, ms, {
        jobId: jobs.report.id,
        jobCode: 'nightly-report',
        ...patch,
      });
    await fire(T0, { status: S.SUCCESS, startedAt: T0 + 100, finishedAt: T0 + 2600 });
    await fire(T0 + 60_000, { status: S.FAILED, startedAt: T0 + 60_050, finishedAt: T0 + 61_000, shardTotal: 2 });
    await fire(T0 + 60_000, { status: S.RUNNING, startedAt: T0 + 60_010, shardIndex: 1, shardTotal: 2 });
    await fire(T0 - 60_000, { status: S.SUCCESS, startedAt: T0 - 59_000, finishedAt: T0 - 58_000 });
    await insertInstance(node.ds, { ns, appId: a.appId }, T0 + 120_000, {
      jobId: jobs.pct.id,
      status: S.PENDING,
    });
  }, 60_000);

  afterAll(async () => {
    if (node?.config.shape === 'cluster')
      await deleteNamespaceRows(node.ds, node.config.namespace, { definitions: true });
    await node?.close();
  });

  const list = async (c: AppClient, query = '') => {
    const res = await c.request<Page>('GET', `/api/jobs${query}`);
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
    return res.body;
  };
  const codes = (p: Page) => p.items.map((j) => j.code);

  it("should show each job's newest instance by fire time (a sharded fire's highest shard), in the list and alone", async () => {
    const running = {
      status: 'RUNNING',
      fireTime: iso(T0 + 60_000),
      startedAt: iso(T0 + 60_010),
      finishedAt: null,
      durationMs: null,
    };
    const page = await list(a);
    expect(codes(page)).toEqual(['a100pct', 'mail_out', 'nightly-report']);
    const [pct, mail, report] = page.items;
    expect(report.lastRun).toEqual({ instanceId: expect.any(String), ...running });
    expect(mail.lastRun).toBeNull();
    expect(pct.lastRun).toMatchObject({ status: 'PENDING', startedAt: null, durationMs: null });
    expect((await a.request<JobView>('GET', `/api/jobs/${jobs.report.id}`)).body.lastRun).toEqual(report.lastRun);
    const patched = await a.request<JobView>('PATCH', '/api/jobs/nightly-report', { retryMax: 1 });
    expect(patched.body.lastRun).toEqual(report.lastRun);
    expect((await list(b)).items[0].lastRun).toBeNull();
  });

  it('should time a finished run: durationMs is finishedAt - startedAt', async () => {
    const ns = node.config.namespace;
    const job = await createJob(a, { code: 'timed' });
    await insertInstance(node.ds, { ns, appId: a.appId }, T0, {
      jobId: job.id,
      startedAt: T0 + 100,
      finishedAt: T0 + 2600,
    });
    expect((await a.request<JobView>('GET', '/api/jobs/timed')).body.lastRun).toMatchObject({
      status: 'SUCCESS',
      startedAt: iso(T0 + 100),
      finishedAt: iso(T0 + 2600),
      durationMs: 2500,
    });
    expect((await a.request('DELETE', '/api/jobs/timed')).status).toBe(204);
  });

  it('should keep the jobs whose code, description or handler holds `q` in any case, and % or _ as plain characters', async () => {
    expect(codes(await list(a, '?q=REPORT'))).toEqual(['nightly-report']);
    expect(codes(await list(a, '?q=sales%20DIGEST'))).toEqual(['nightly-report']);
    expect(codes(await list(a, '?q=NoOp'))).toEqual(['a100pct', 'mail_out', 'nightly-report']);
    expect(codes(await list(a, '?q=%25'))).toEqual(['a100pct']);
    expect(codes(await list(a, '?q=_'))).toEqual(['mail_out']);
    expect(await list(a, '?q=nothing-like-it')).toEqual({ total: 0, items: [] });
  });

  it('should keep enabled or paused jobs, with q, and page the kept ones', async () => {
    expect(codes(await list(a, '?enabled=false'))).toEqual(['mail_out']);
    expect(codes(await list(a, '?enabled=true'))).toEqual(['a100pct', 'nightly-report']);
    expect(await list(a, '?enabled=true&q=night')).toMatchObject({ total: 1, items: [{ code: 'nightly-report' }] });
    expect(await list(a, '?enabled=true&limit=1&offset=1')).toMatchObject({
      total: 2,
      items: [{ code: 'nightly-report' }],
    });
  });

  it("should order an admin's list by code, then owner, and filter it by ?appId=", async () => {
    const both = await list(admin, '?q=nightly');
    expect(both.items.map((j) => [j.code, j.appId])).toEqual(
      [
        ['nightly-report', a.appId],
        ['nightly-report', b.appId],
      ].sort((x, y) => (x[1] < y[1] ? -1 : 1)),
    );
    expect((await list(admin, `?q=nightly&appId=${b.appId}`)).items.map((j) => j.id)).toEqual([jobs.other.id]);
    expectProblem(await b.request('GET', `/api/jobs?appId=${a.appId}`), 403, { scope: 'admin' });
  });

  it.each([
    ['q=', 'q'],
    [`q=${'x'.repeat(129)}`, 'q'],
    ['enabled=yes', 'enabled'],
    ['enabled=1', 'enabled'],
    ['search=x', 'search'],
  ])('should refuse ?%s with a 400 naming %s', async (query, field) => {
    expectProblem(await a.request('GET', `/api/jobs?${query}`), 400, { field });
  });
});
