import { CallbackState, JobInstanceStatus as S, Scope } from '../../src/modules/metadata/index.js';
import { insertDelivery, insertInstance } from '../utils/instance-rows.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import { appClient, expectProblem, SHAPES } from '../utils/tenancy.js';
import { type AppClient, executorsBeat, startNode, type TestNode } from '../utils/test-node.js';

type Task = Record<string, unknown> & { requestId: string; instanceId: string; status: string; createdAt: string };
type Page = { total: number; items: Task[]; nextCursor: string | null };
const BASE = Date.UTC(2026, 0, 10, 12, 0, 0);
const at = (i: number) => new Date(BASE + i * 1000).toISOString();

/**
 * GET /api/tasks (docs/api.md "Lists") on both shapes: an app's tasks newest first, its filters, keyset and offset
 * pages, tenancy, and every bad query a 400 naming the field; the submit route on the same path still takes a task.
 * Known rows are inserted (final, or PENDING due in a day: no background loop changes them).
 */
describe.each(SHAPES)('task list (%s)', (_shape, env) => {
  let node: TestNode;
  let a: AppClient;
  let b: AppClient;
  let admin: AppClient;
  const mine: string[] = []; // a's request ids, newest first

  beforeAll(async () => {
    node = await startNode(env());
    [a, b, admin] = await Promise.all([
      appClient(node, 'tl-a'),
      appClient(node, 'tl-b'),
      appClient(node, 'tl-admin', [Scope.ADMIN]),
    ]);
    const ns = node.config.namespace;
    const statuses = [S.SUCCESS, S.FAILED, S.PENDING, S.SUCCESS, S.CANCELLED, S.SUCCESS, S.PENDING];
    for (const [i, status] of statuses.entries()) {
      const row = await insertInstance(node.ds, { ns, appId: a.appId }, BASE + i * 1000, {
        status,
        handler: i % 2 === 0 ? 'report.build' : 'mail.send',
        requestId: `tl-${i}`,
      });
      if (i === 5) await insertDelivery(node.ds, row, CallbackState.DELIVERED, BASE + i * 1000 + 10);
      mine.unshift(`tl-${i}`);
    }
    await insertInstance(node.ds, { ns, appId: a.appId }, BASE + 3500, {
      jobId: '00000000-0000-7000-8000-00000000jj01',
    });
    for (const i of [1, 2])
      await insertInstance(node.ds, { ns, appId: b.appId }, BASE + i * 1000, { requestId: `b-${i}` });
    await insertInstance(node.ds, { ns: `${ns}-elsewhere`, appId: a.appId }, BASE + 9000, { requestId: 'tl-other-ns' });
  }, 60_000);

  afterAll(async () => {
    if (node?.config.shape === 'cluster') {
      await deleteNamespaceRows(node.ds, node.config.namespace);
      await deleteNamespaceRows(node.ds, `${node.config.namespace}-elsewhere`);
    }
    await node?.close();
  });

  const list = async (c: AppClient, query = '') => {
    const res = await c.request<Page>('GET', `/api/tasks${query}`);
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
    return res.body;
  };
  const ids = (p: Page) => p.items.map((t) => t.requestId);

  it("should list the app's tasks of this namespace newest first, as GET of one task without its attempts", async () => {
    const page = await list(a);
    expect(page).toMatchObject({ total: 7, nextCursor: null });
    expect(ids(page)).toEqual(mine);
    const one = (await a.request<Task>('GET', '/api/tasks/tl-5')).body;
    const { attempts, ...withoutAttempts } = one;
    expect(attempts).toEqual([]);
    expect(page.items[1]).toEqual(withoutAttempts);
    expect(page.items[1]).toMatchObject({ createdAt: at(5), callback: { status: 'DELIVERED' }, handler: 'mail.send' });
    expect(page.items.every((t) => !('attempts' in t))).toBe(true);
  });

  it('should keep the tasks every filter names: status, handler, from and to (inclusive)', async () => {
    expect(ids(await list(a, '?status=SUCCESS'))).toEqual(['tl-5', 'tl-3', 'tl-0']);
    expect(ids(await list(a, '?handler=mail.send'))).toEqual(['tl-5', 'tl-3', 'tl-1']);
    expect(ids(await list(a, `?from=${at(2)}&to=${at(4)}`))).toEqual(['tl-4', 'tl-3', 'tl-2']);
    const both = await list(
      a,
      `?status=PENDING&handler=report.build&from=${encodeURIComponent('2026-01-10T13:00:03+01:00')}`,
    );
    expect(both).toMatchObject({ total: 1, items: [{ requestId: 'tl-6', status: 'PENDING' }] });
    expect(await list(a, '?status=RUNNING')).toEqual({ total: 0, items: [], nextCursor: null });
  });

  it('should page by cursor without gaps or repeats, and by offset to the same pages', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Page = await list(a, `?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.total).toBe(7);
      seen.push(...ids(page));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== null);
    expect(pages).toBe(3);
    expect(seen).toEqual(mine);
    expect(ids(await list(a, '?offset=3&limit=3'))).toEqual(mine.slice(3, 6));
    const first = await list(a, '?limit=2&status=SUCCESS');
    expect(ids(await list(a, `?limit=2&status=SUCCESS&cursor=${first.nextCursor}`))).toEqual(['tl-0']);
  });

  it("should show each app its own tasks only, an admin every app's or one app's, a non-admin naming another a 403", async () => {
    expect(ids(await list(b))).toEqual(['b-2', 'b-1']);
    expect((await list(admin)).total).toBe(9);
    expect(ids(await list(admin, `?appId=${b.appId}`))).toEqual(['b-2', 'b-1']);
    expectProblem(await b.request('GET', `/api/tasks?appId=${a.appId}`), 403, { scope: 'admin' });
    const writeOnly = await appClient(node, 'tl-w', [Scope.TASKS_WRITE]);
    expectProblem(await writeOnly.request('GET', '/api/tasks'), 403, { scope: 'tasks:read' });
  });

  it.each([
    ['status=DONE', 'status'],
    ['handler=no%20spaces', 'handler'],
    ['from=2026-01-10', 'from'],
    ['to=yesterday', 'to'],
    [`from=${at(5)}&to=${at(4)}`, 'to'],
    ['limit=0', 'limit'],
    ['limit=501', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=100001', 'offset'],
    ['cursor=bm90LW91cnM', 'cursor'],
    ['offset=2&cursor=dDoxOjE', 'cursor'],
    ['appId=x', 'appId'],
    ['q=report', 'q'],
  ])('should refuse ?%s with a 400 naming %s', async (query, field) => {
    expectProblem(await a.request('GET', `/api/tasks?${query}`), 400, { field });
  });

  it('should still take a submit on the same path, and list it first', async () => {
    if (node.config.shape === 'cluster') await executorsBeat(node, 1); // a handler no live executor runs is a 400
    const res = await a.request<{ requestId: string }>('POST', '/api/tasks', { requestId: 'tl-new', handler: 'noop' });
    expect(res.status).toBe(202);
    expect(ids(await list(a, '?limit=1'))).toEqual(['tl-new']);
  });
});
