import { CallbackState, Scope } from '../../src/modules/metadata/index.js';
import { insertDelivery, insertInstance } from '../utils/instance-rows.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import { appClient, expectProblem, SHAPES } from '../utils/tenancy.js';
import { type AppClient, startNode, type TestNode } from '../utils/test-node.js';

type Delivery = Record<string, unknown> & { deliveryId: string; status: string; requestId: string };
type Page = { total: number; items: Delivery[]; nextCursor: string | null };
const BASE = Date.UTC(2026, 0, 10, 12, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();
const JOB = '00000000-0000-7000-8000-00000000dd01';

/**
 * GET /api/callbacks/deliveries (docs/api.md "Callbacks") on both shapes: an app's deliveries newest first with the
 * view a task shows and where each belongs, the state filter, pages, tenancy and bad queries. Inserted rows: final,
 * or waiting and due in a day, so no sender tries them.
 */
describe.each(SHAPES)('callback deliveries (%s)', (_shape, env) => {
  let node: TestNode;
  let a: AppClient;
  let b: AppClient;
  let admin: AppClient;

  beforeAll(async () => {
    node = await startNode(env());
    [a, b, admin] = await Promise.all([
      appClient(node, 'cd-a'),
      appClient(node, 'cd-b'),
      appClient(node, 'cd-admin', [Scope.ADMIN]),
    ]);
    const ns = node.config.namespace;
    const states = [
      CallbackState.DELIVERED,
      CallbackState.CALLBACK_FAILED,
      CallbackState.RETRYING,
      CallbackState.DELIVERED,
    ];
    for (const [i, state] of states.entries()) {
      const row = await insertInstance(node.ds, { ns, appId: a.appId }, BASE + i * 1000, {
        requestId: `cd-${i}`,
        jobId: i === 1 ? JOB : null,
      });
      const failed = state === CallbackState.CALLBACK_FAILED;
      await insertDelivery(node.ds, row, state, BASE + i * 1000 + 10, {
        finalAt: Date.now(), // a waiting delivery older than CALLBACK_MAX_AGE_MS would be expired by the sender
        lastStatusCode: failed ? 404 : null,
        lastError: failed ? 'HTTP 404' : null,
      });
    }
    const other = await insertInstance(node.ds, { ns, appId: b.appId }, BASE, { requestId: 'cd-b' });
    await insertDelivery(node.ds, other, CallbackState.PENDING, BASE + 5000, { finalAt: Date.now() });
  }, 60_000);

  afterAll(async () => {
    if (node?.config.shape === 'cluster') await deleteNamespaceRows(node.ds, node.config.namespace);
    await node?.close();
  });

  const list = async (c: AppClient, query = '') => {
    const res = await c.request<Page>('GET', `/api/callbacks/deliveries${query}`);
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
    return res.body;
  };
  const reqs = (p: Page) => p.items.map((d) => d.requestId);

  it("should list the app's deliveries newest first: the task's callback view, its instance, request, job and host", async () => {
    const page = await list(a);
    expect(page).toMatchObject({ total: 4, nextCursor: null });
    expect(reqs(page)).toEqual(['cd-3', 'cd-2', 'cd-1', 'cd-0']);
    const task = (await a.request<{ instanceId: string; callback: unknown }>('GET', '/api/tasks/cd-1')).body;
    expect(page.items[2]).toEqual({
      ...(task.callback as object),
      instanceId: task.instanceId,
      appId: a.appId,
      requestId: 'cd-1',
      jobId: JOB,
      host: 'hooks.example.com:443',
      createdAt: iso(BASE + 1010),
      updatedAt: iso(BASE + 1060),
    });
    expect(page.items[2]).toMatchObject({ status: 'CALLBACK_FAILED', lastStatusCode: 404, nextAttemptAt: null });
    expect(page.items[1]).toMatchObject({
      status: 'RETRYING',
      jobId: null,
      nextAttemptAt: expect.any(String),
    });
    expect(Date.parse(page.items[1].nextAttemptAt as string)).toBeGreaterThan(Date.now() + 3_600_000);
  });

  it('should keep one state, and page by cursor or offset', async () => {
    expect(reqs(await list(a, '?state=DELIVERED'))).toEqual(['cd-3', 'cd-0']);
    expect(await list(a, '?state=PENDING')).toEqual({ total: 0, items: [], nextCursor: null });
    const first = await list(a, '?limit=3');
    expect(reqs(first)).toEqual(['cd-3', 'cd-2', 'cd-1']);
    const rest = await list(a, `?limit=3&cursor=${first.nextCursor}`);
    expect(rest).toMatchObject({ total: 4, nextCursor: null });
    expect(reqs(rest)).toEqual(['cd-0']);
    expect(reqs(await list(a, '?offset=1&limit=2'))).toEqual(['cd-2', 'cd-1']);
  });

  it("should show each app its own deliveries, an admin every app's or one app's, a non-admin naming another a 403", async () => {
    expect(reqs(await list(b))).toEqual(['cd-b']);
    expect((await list(admin)).total).toBe(5);
    expect(reqs(await list(admin, `?appId=${b.appId}&state=PENDING`))).toEqual(['cd-b']);
    expectProblem(await b.request('GET', `/api/callbacks/deliveries?appId=${a.appId}`), 403, { scope: 'admin' });
    const jobsOnly = await appClient(node, 'cd-jobs', [Scope.JOBS_READ]);
    expectProblem(await jobsOnly.request('GET', '/api/callbacks/deliveries'), 403, { scope: 'tasks:read' });
  });

  it.each([
    ['state=SENT', 'state'],
    ['limit=501', 'limit'],
    ['offset=-1', 'offset'],
    ['cursor=dDoxOmE', 'cursor'],
    ['appId=x', 'appId'],
    ['status=DELIVERED', 'status'],
  ])('should refuse ?%s with a 400 naming %s', async (query, field) => {
    expectProblem(await a.request('GET', `/api/callbacks/deliveries?${query}`), 400, { field });
  });
});
