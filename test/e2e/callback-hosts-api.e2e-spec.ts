import { randomBytes, randomUUID } from 'node:crypto';
import { DEFAULT_SCOPES, Scope } from '../../src/modules/metadata/index.js';
import { expectProblem, SHAPES } from '../utils/tenancy.js';
import { type AppClient, signedClient, startNode, TestNode, UNLIMITED } from '../utils/test-node.js';

type HostView = {
  host: string;
  state: string;
  consecutiveFailures: number;
  downSince: string | null;
  nextProbeAt: string | null;
  lastError: string | null;
};
type Row = { id: string; state: string; attempts: number; last_error: string | null; updated_at: number };

const HOST = 'hooks.invalid:443';
const HOUR = 3_600_000;
const COLUMNS =
  'id, namespace, instance_id, app_id, url, host, state, attempts, next_attempt_at, last_status_code, last_error, ' +
  'final_at, created_at, updated_at';

/**
 * The hosts routes (docs/callbacks.md "Hosts marked down", "Redeliver"; docs/api.md "Callbacks"): an app's hosts and
 * their state, and redeliver by host: bounded, closed body, the app's own rows only (an admin's ?appId=), the same
 * deliveryIds, the host brought up, one audit row per call. The node's sender polls once a minute
 * (CALLBACK_POLL_MS), so it leaves the rows written here alone while the cases read them.
 */
describe.each(SHAPES)('callback hosts API (%s)', (_shape, env) => {
  let node: TestNode;
  let run: string;
  let a: AppClient;
  let b: AppClient;
  let admin: AppClient;
  const app = (name: string, scopes = DEFAULT_SCOPES) => signedClient(node, `${run}-${name}`, scopes, UNLIMITED);

  beforeAll(async () => {
    node = await startNode(env({ CALLBACK_POLL_MS: '60000' }));
    run = `ch${randomBytes(3).toString('hex')}`;
    [a, b, admin] = await Promise.all([app('a'), app('b'), app('admin', [Scope.ADMIN])]);
  }, 60_000);
  afterAll(async () => node?.close());

  /** `n` deliveries of `appId` to `host` in `state`, last changed at `updatedAt`. @returns their ids, oldest first. */
  async function deliveries(appId: string, host: string, n: number, updatedAt: number, state = 'CALLBACK_FAILED') {
    const ids = Array.from({ length: n }, () => randomUUID());
    for (let i = 0; i < n; i += 500) {
      const part = ids.slice(i, i + 500);
      const rows = part.map((id) => [id, node.config.namespace, randomUUID(), appId, `https://${host}/x`, host]);
      const values = rows.map((r) => [...r, state, 6, 1, 503, 'HOST_DOWN: x', 1, 1, updatedAt]);
      await node.ds.query(
        `INSERT INTO callback_delivery (${COLUMNS}) VALUES ${values.map(() => `(${'?, '.repeat(13)}?)`).join(', ')}`,
        values.flat(),
      );
    }
    return ids;
  }
  const rowsOf = async (ids: string[]): Promise<Row[]> =>
    (await node.ds.query(
      `SELECT id, state, attempts, last_error, updated_at FROM callback_delivery WHERE id IN (${ids.map(() => '?')})`,
      ids,
    )) as Row[];
  const audits = async (actor: string) =>
    (await node.ds.query('SELECT * FROM audit_log WHERE namespace = ? AND action = ? AND app_id = ?', [
      node.config.namespace,
      'CALLBACK_REDELIVER_HOST',
      actor,
    ])) as Array<{ target_id: string; before: string; after: string }>;
  async function down(appId: string, host: string) {
    await node.ds.query(
      'INSERT INTO callback_host (namespace, app_id, host, consecutive_failures, down_since, next_probe_at, probes,' +
        ' last_error, updated_at) VALUES (?, ?, ?, 3, ?, ?, 0, ?, ?)',
      [node.config.namespace, appId, host, Date.now() - HOUR, Date.now() + HOUR, 'ECONNREFUSED', Date.now()],
    );
  }
  const redeliver = (c: AppClient, body: unknown, query = '') =>
    c.request<{ redelivered: number; more: boolean }>('POST', `/api/callbacks/hosts/redeliver${query}`, body);
  const since = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();

  it("should redeliver the app's failed deliveries to the host since the time, with their ids, and bring it up", async () => {
    const old = await deliveries(a.appId, HOST, 3, Date.now() - 2 * HOUR);
    const recent = await deliveries(a.appId, HOST, 4, Date.now() - 600_000);
    const delivered = await deliveries(a.appId, HOST, 1, Date.now() - 300_000, 'DELIVERED');
    const otherHost = await deliveries(a.appId, 'elsewhere.invalid:443', 1, Date.now() - 300_000);
    const otherApp = await deliveries(b.appId, HOST, 1, Date.now() - 300_000);
    await down(a.appId, HOST);
    await down(b.appId, HOST);

    const listed = await a.request<{ total: number; items: HostView[] }>('GET', '/api/callbacks/hosts');
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ total: 1, items: [{ host: HOST, state: 'down', consecutiveFailures: 3 }] });
    expect(listed.body.items[0]).toMatchObject({ lastError: 'ECONNREFUSED', downSince: expect.any(String) });

    const res = await redeliver(a, { host: 'Hooks.INVALID:443', since: since(HOUR) });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ redelivered: 4, more: false });
    const after = await rowsOf(recent);
    expect(after.map((r) => r.id).sort()).toEqual([...recent].sort()); // the same rows: the same deliveryIds
    expect(after.map((r) => [r.state, r.attempts, r.last_error])).toEqual(recent.map(() => ['PENDING', 0, null]));
    for (const [ids, state] of [
      [old, 'CALLBACK_FAILED'],
      [delivered, 'DELIVERED'],
      [otherHost, 'CALLBACK_FAILED'],
      [otherApp, 'CALLBACK_FAILED'],
    ] as const)
      expect((await rowsOf([...ids])).map((r) => r.state)).toEqual(ids.map(() => state));

    const hosts = await a.request<{ items: HostView[] }>('GET', '/api/callbacks/hosts');
    expect(hosts.body.items).toMatchObject([{ host: HOST, state: 'up', consecutiveFailures: 0, downSince: null }]);
    const bHosts = await b.request<{ items: HostView[] }>('GET', '/api/callbacks/hosts');
    expect(bHosts.body.items).toMatchObject([{ host: HOST, state: 'down' }]); // B's pair is its own

    const rows = await audits(a.appId);
    expect(rows).toHaveLength(1);
    expect(rows[0].target_id).toBe(a.appId);
    expect(JSON.parse(rows[0].before)).toEqual({ host: HOST, down: true, consecutiveFailures: 3 });
    expect(JSON.parse(rows[0].after)).toMatchObject({ host: HOST, redelivered: 4, more: false });
    expect((await redeliver(a, { host: HOST, since: since(HOUR) })).body).toEqual({ redelivered: 0, more: false });
    expect(await audits(a.appId)).toHaveLength(2); // one row per call, whatever it redelivered
  });

  it('should redeliver at most 10,000 a call and say when more match', async () => {
    const c = await app('bulk');
    await deliveries(c.appId, HOST, 10_001, Date.now() - 60_000);
    expect((await redeliver(c, { host: HOST, since: since(HOUR) })).body).toEqual({ redelivered: 10_000, more: true });
    expect((await redeliver(c, { host: HOST, since: since(HOUR) })).body).toEqual({ redelivered: 1, more: false });
  });

  it('should refuse a bad host or since, or an unknown field, with a 400 naming it, and write nothing', async () => {
    const ok = { host: HOST, since: since(HOUR) };
    const cases: Array<[unknown, string]> = [
      [{ ...ok, since: since(8 * 24 * HOUR) }, 'since'],
      [{ ...ok, since: new Date(Date.now() + HOUR).toISOString() }, 'since'],
      [{ ...ok, since: 'yesterday' }, 'since'],
      [{ ...ok, since: '2026-12-01T10:00:00' }, 'since'],
      [{ host: HOST }, 'since'],
      [{ ...ok, host: 'hooks.example.com' }, 'host'],
      [{ ...ok, host: 'https://hooks.example.com:443/' }, 'host'],
      [{ ...ok, host: `${'h'.repeat(300)}:1` }, 'host'],
      [{ ...ok, host: 443 }, 'host'],
      [{ since: ok.since }, 'host'],
      [{ ...ok, x: 1 }, 'x'],
    ];
    const before = (await audits(a.appId)).length;
    for (const [body, field] of cases) expectProblem(await redeliver(a, body), 400, { field });
    expect(await audits(a.appId)).toHaveLength(before);
  });

  it('should need tasks:write to redeliver and tasks:read to list; only an admin names another app', async () => {
    const ok = { host: HOST, since: since(HOUR) };
    const readOnly = await app('ro', [Scope.TASKS_READ]);
    const writeOnly = await app('wo', [Scope.TASKS_WRITE]);
    expectProblem(await redeliver(readOnly, ok), 403, { scope: 'tasks:write' });
    expectProblem(await writeOnly.request('GET', '/api/callbacks/hosts'), 403, { scope: 'tasks:read' });
    expectProblem(await redeliver(b, ok, `?appId=${a.appId}`), 403, { scope: 'admin' });
    expectProblem(await b.request('GET', `/api/callbacks/hosts?appId=${a.appId}`), 403, { scope: 'admin' });
    expect(await audits(b.appId)).toHaveLength(0);

    const target = await app('target');
    const ids = await deliveries(target.appId, HOST, 2, Date.now() - 60_000);
    const byAdmin = await redeliver(admin, ok, `?appId=${target.appId}`);
    expect([byAdmin.status, byAdmin.body]).toEqual([202, { redelivered: 2, more: false }]);
    expect((await rowsOf(ids)).map((r) => r.state)).toEqual(['PENDING', 'PENDING']);
    expect((await audits(admin.appId)).map((r) => r.target_id)).toEqual([target.appId]);
    expectProblem(await redeliver(admin, ok, `?appId=${run}-nobody`), 404);
    const seen = await admin.request<{ total: number }>('GET', `/api/callbacks/hosts?appId=${target.appId}`);
    expect(seen.status).toBe(200);
  });
});
