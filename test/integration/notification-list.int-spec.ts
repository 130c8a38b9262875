import { newId } from '../../src/common/index.js';
import { Notification, NotificationDelivery, Scope } from '../../src/modules/metadata/index.js';
import { appClient, expectProblem, SHAPES } from '../utils/tenancy.js';
import { type AppClient, startNode, type TestNode } from '../utils/test-node.js';

type Item = Record<string, unknown> & { id: string; title: string; deliveries: Array<Record<string, unknown>> };
type Page = { total: number; items: Item[]; nextCursor: string | null };
const BASE = Date.UTC(2026, 0, 10, 12, 0, 0);
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * GET /api/notifications (docs/notifications.md "Reading notifications") on both shapes: an app's messages newest
 * first with their deliveries, the filters, pages, scope and an admin's appId. Inserted rows are not due for a day
 * (OPEN ones) or settled (SENT ones), so the node's own closer and sender leave them alone.
 */
describe.each(SHAPES)('notification list (%s)', (_shape, env) => {
  let node: TestNode;
  let a: AppClient;
  let b: AppClient;
  let admin: AppClient;
  let sentId: string;

  async function insert(appId: string, i: number, patch: Partial<Notification> = {}): Promise<string> {
    const id = newId();
    const sent = patch.state === 'SENT';
    await node.ds.getRepository(Notification).insert({
      id,
      namespace: node.config.namespace,
      appId,
      ruleId: null,
      ruleName: 'failures',
      kind: 'FINAL_FAILURE',
      groupKey: `job-${i}`,
      openKey: sent ? null : id,
      state: 'OPEN',
      title: `m${i}`,
      events: [{ at: iso(BASE + i), jobCode: `job-${i}`, status: 'FAILED' }],
      eventCount: 1,
      firstEventAt: BASE + i,
      lastEventAt: BASE + i,
      sendAt: Date.now() + DAY,
      channels: [],
      sentAt: sent ? BASE + i * 1000 + 500 : null,
      createdAt: BASE + i * 1000,
      updatedAt: BASE + i * 1000,
      ...patch,
    });
    return id;
  }

  beforeAll(async () => {
    node = await startNode(env());
    [a, b, admin] = await Promise.all([
      appClient(node, 'nl-a'),
      appClient(node, 'nl-b'),
      appClient(node, 'nl-admin', [Scope.ADMIN]),
    ]);
    await insert(a.appId, 0);
    sentId = await insert(a.appId, 1, { state: 'SENT', kind: 'RECOVERY', ruleName: 'back' });
    await insert(a.appId, 2);
    await insert(a.appId, 3, { state: 'SENT' });
    await insert(b.appId, 4);
    const d = (i: number, patch: Partial<NotificationDelivery>) => ({
      id: newId(),
      namespace: node.config.namespace,
      appId: a.appId,
      notificationId: sentId,
      channelIndex: i,
      attempts: 1,
      nextAttemptAt: BASE,
      claim: null,
      leaseUntil: null,
      lastStatusCode: null,
      lastError: null,
      deliveredAt: null,
      createdAt: BASE,
      updatedAt: BASE,
      ...patch,
    });
    await node.ds
      .getRepository(NotificationDelivery)
      .insert([
        d(0, { channelType: 'webhook', target: 'https://hooks.example.com/x?token=s3cret', state: 'DELIVERED' }),
        d(1, { channelType: 'email', target: 'a@example.com,b@example.com', state: 'FAILED', lastStatusCode: 550 }),
      ]);
  }, 60_000);

  afterAll(async () => {
    if (node?.config.shape === 'cluster') {
      await node.ds.query('DELETE FROM notification_delivery WHERE namespace = ?', [node.config.namespace]);
      await node.ds.query('DELETE FROM notification WHERE namespace = ?', [node.config.namespace]);
    }
    await node?.close();
  });

  const list = async (c: AppClient, query = '') => {
    const res = await c.request<Page>('GET', `/api/notifications${query}`);
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
    return res.body;
  };
  const titles = (p: Page) => p.items.map((n) => n.title);

  it("should list the app's messages newest first, each with its deliveries (URLs without their query)", async () => {
    const page = await list(a);
    expect(titles(page)).toEqual(['m3', 'm2', 'm1', 'm0']);
    expect([page.total, page.nextCursor]).toEqual([4, null]);
    expect(page.items[2]).toEqual({
      id: sentId,
      appId: a.appId,
      rule: 'back',
      kind: 'RECOVERY',
      title: 'm1',
      groupKey: 'job-1',
      state: 'SENT',
      eventCount: 1,
      firstEventAt: iso(BASE + 1),
      lastEventAt: iso(BASE + 1),
      sendAt: expect.any(String),
      sentAt: iso(BASE + 1500),
      events: [{ at: iso(BASE + 1), jobCode: 'job-1', status: 'FAILED' }],
      deliveries: [
        {
          id: expect.any(String),
          channel: 'webhook',
          target: 'https://hooks.example.com/x',
          state: 'DELIVERED',
          attempts: 1,
          lastStatusCode: null,
          lastError: null,
          nextAttemptAt: null,
          deliveredAt: null,
        },
        expect.objectContaining({ channel: 'email', target: 'a@example.com,b@example.com', state: 'FAILED' }),
      ],
    });
    expect(page.items[0]).toMatchObject({ state: 'SENT', deliveries: [] });
    expect(page.items[1]).toMatchObject({ state: 'OPEN', sentAt: null, deliveries: [] });
  });

  it('should filter by state, kind and rule, and page by cursor or offset', async () => {
    expect(titles(await list(a, '?state=OPEN'))).toEqual(['m2', 'm0']);
    expect(titles(await list(a, '?kind=RECOVERY'))).toEqual(['m1']);
    expect(titles(await list(a, '?rule=failures&state=SENT'))).toEqual(['m3']);
    const first = await list(a, '?limit=3');
    expect(titles(first)).toEqual(['m3', 'm2', 'm1']);
    const rest = await list(a, `?limit=3&cursor=${first.nextCursor}`);
    expect([titles(rest), rest.total, rest.nextCursor]).toEqual([['m0'], 4, null]);
    expect(titles(await list(a, '?offset=1&limit=2'))).toEqual(['m2', 'm1']);
  });

  it("should show each app its own, an admin every app's or one app's; jobs:read is needed", async () => {
    expect(titles(await list(b))).toEqual(['m4']);
    expect(titles(await list(admin))).toEqual(['m4', 'm3', 'm2', 'm1', 'm0']);
    expect(titles(await list(admin, `?appId=${b.appId}`))).toEqual(['m4']);
    expectProblem(await b.request('GET', `/api/notifications?appId=${a.appId}`), 403, { scope: 'admin' });
    const tasksOnly = await appClient(node, 'nl-tasks', [Scope.TASKS_READ]);
    expectProblem(await tasksOnly.request('GET', '/api/notifications'), 403, { scope: 'jobs:read' });
  });

  it.each([
    ['state=DELIVERED', 'state'],
    ['kind=NOPE', 'kind'],
    [`rule=${'r'.repeat(101)}`, 'rule'],
    ['limit=501', 'limit'],
    ['cursor=ZDoxOmE', 'cursor'],
    ['appId=x', 'appId'],
    ['status=OPEN', 'status'],
  ])('should refuse ?%s with a 400 naming %s', async (query, field) => {
    expectProblem(await a.request('GET', `/api/notifications?${query}`), 400, { field });
  });
});
