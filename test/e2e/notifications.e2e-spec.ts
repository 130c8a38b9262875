import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { DEFAULT_SCOPES, Scope } from '../../src/modules/metadata/index.js';
import { startSink, type HttpSink } from '../utils/notification-harness.js';
import { parseTraceparent } from '../utils/trace-receiver.js';
import { clusterEnv, signedClient, startNode, type TestNode, uniqueNamespace, waitFor } from '../utils/test-node.js';
import { createJob } from '../utils/jobs.js';
import { expectProblem } from '../utils/tenancy.js';

type Delivery = { channel: string; state: string; attempts: number };
type Message = { id: string; rule: string; kind: string; title: string; eventCount: number; deliveries: Delivery[] };
type Page = { items: Message[] };

/** A free loopback port nothing listens on. */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** An `http` handler target whose answer the test sets: 200 or 500. */
async function startTarget(): Promise<{ url: string; status: number; close(): Promise<void> }> {
  const t = { url: '', status: 500, close: async () => {} };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(t.status).end('x'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/run`;
  t.close = () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r())));
  return t;
}

/**
 * Notification rules end to end on the cluster shape (docs/notifications.md): the rule routes and their refusals,
 * then each rule kind from the event that triggers it to a signed webhook delivery, grouping in the quiet period.
 * Scans run every 300 ms here (NOTIFY_SCAN_MS).
 */
describe('notifications (cluster)', () => {
  let node: TestNode;
  let hook: HttpSink;
  let target: Awaited<ReturnType<typeof startTarget>>;
  const run = `nt${randomBytes(3).toString('hex')}`;
  const app = (name: string, scopes = DEFAULT_SCOPES) => signedClient(node, `${run}-${name}`, scopes);
  const messages = async (c: TickwheelClient, rule?: string) => {
    const res = await c.request<Page>('GET', `/api/notifications?limit=100${rule ? `&rule=${rule}` : ''}`);
    expect(res.status).toBe(200);
    return res.body.items;
  };
  const hitsOf = (rule: string) => hook.hits.filter((h) => (JSON.parse(h.body) as { rule: string }).rule === rule);
  const rule = async (c: TickwheelClient, body: Record<string, unknown>) => {
    const res = await c.request('POST', '/api/notifications/rules', {
      channels: [{ type: 'webhook', url: hook.url }],
      ...body,
    });
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 201 });
  };
  const finished = (c: TickwheelClient, requestId: string) => async () =>
    ['SUCCESS', 'FAILED', 'TIMEOUT'].includes(String((await c.getTask(requestId)).body.status));

  beforeAll(async () => {
    hook = await startSink(() => 200);
    target = await startTarget();
    const env = {
      ...{ NOTIFY_SCAN_MS: '300', NOTIFY_EVAL_MS: '100', NOTIFY_MAX_PER_HOUR: '6' },
      CALLBACK_RETRY_DELAYS_MS: '200,200,200,200',
    };
    node = await startNode(clusterEnv(uniqueNamespace('e2e-notify'), env));
  }, 60_000);
  afterAll(async () => {
    await node?.close();
    await hook?.close();
    await target?.close();
  });

  it('should refuse a bad rule naming the field, replace one with PUT, list, delete, and keep defaults to admins', async () => {
    const a = await app('api');
    const bad: Array<[Record<string, unknown>, string, number]> = [
      [{ name: 'r', kind: 'NOPE' }, 'kind', 400],
      [{ name: 'r', kind: 'CONSECUTIVE_FAILURES' }, 'count', 400],
      [{ name: 'r', kind: 'CONSECUTIVE_FAILURES', count: 1 }, 'count', 400],
      [{ name: 'r', kind: 'FINAL_FAILURE', withinMs: 5000 }, 'withinMs', 400],
      [{ name: 'r', kind: 'DEADLINE', withinMs: 5000, finishBy: '06:00' }, 'withinMs', 400],
      [{ name: 'r', kind: 'DEADLINE', finishBy: '25:00' }, 'finishBy', 400],
      [{ name: 'r', kind: 'DEADLINE', finishBy: '06:00', timeZone: 'Mars/Base' }, 'timeZone', 400],
      [{ name: 'r', kind: 'CALLBACK_HOST_FAILING', jobCode: 'x' }, 'jobCode', 400],
      [{ name: 'bad name!', kind: 'RECOVERY' }, 'name', 400],
      [{ name: '..', kind: 'RECOVERY' }, 'name', 400],
      [
        { name: 'r', kind: 'RECOVERY', channels: [{ type: 'email', to: ['not-an-address'] }] },
        'channels[0].to[0]',
        400,
      ],
      [{ name: 'r', kind: 'RECOVERY', channels: [{ type: 'pager', url: 'x' }] }, 'channels[0].type', 400],
      [
        { name: 'r', kind: 'RECOVERY', channels: [{ type: 'chat', url: 'http://169.254.169.254/' }] },
        'channels[0].url',
        400,
      ],
      [{ name: 'r', kind: 'RECOVERY', channels: [{ type: 'email', to: ['a@example.com'] }] }, 'channels[0]', 400],
      [{ name: 'r', kind: 'RECOVERY', surprise: 1 }, 'surprise', 400],
    ];
    for (const [body, field, status] of bad) {
      const res = await a.request('POST', '/api/notifications/rules', body);
      expectProblem(res, status, { field });
    }
    expect((await a.request<Page>('GET', '/api/notifications/rules')).body).toMatchObject({ total: 0 });
    await rule(a, { name: 'twice', kind: 'CONSECUTIVE_FAILURES', jobCode: 'nightly-export', count: 2 });
    expectProblem(await a.request('POST', '/api/notifications/rules', { name: 'twice', kind: 'RECOVERY' }), 409, {
      field: 'name',
    });
    const put = await a.request('PUT', '/api/notifications/rules/twice', { kind: 'CONSECUTIVE_FAILURES', count: 3 });
    expect(put.body).toMatchObject({ name: 'twice', count: 3, quietMs: 600_000, groupBy: 'SUBJECT', channels: [] });
    expect((await a.request('GET', '/api/notifications/rules/twice')).body).toMatchObject({ count: 3 });
    expectProblem(await a.request('GET', '/api/notifications/rules?appId=*'), 403, {});
    expect((await a.request('DELETE', '/api/notifications/rules/twice')).status).toBe(204);
    expectProblem(await a.request('GET', '/api/notifications/rules/twice'), 404, {});
    const admin = await app('admin', [...DEFAULT_SCOPES, Scope.ADMIN]);
    const def = await admin.request('PUT', '/api/notifications/rules/ops-default?appId=*', { kind: 'FINAL_FAILURE' });
    expect(def.body).toMatchObject({ appId: '*', kind: 'FINAL_FAILURE', target: 'ANY' });
    expect((await admin.request('DELETE', '/api/notifications/rules/ops-default?appId=*')).status).toBe(204);
  });

  it('should tell the owner once when a job fails twice in a row, and once when it recovers after three', async () => {
    const a = await app('streak');
    await createJob(a, { code: 'nightly-export', handler: 'http', params: { url: target.url } });
    await rule(a, { name: 'twice', kind: 'CONSECUTIVE_FAILURES', jobCode: 'nightly-export', count: 2, quietMs: 0 });
    await rule(a, { name: 'back', kind: 'RECOVERY', jobCode: 'nightly-export', quietMs: 0 });
    const traces: string[] = [];
    for (const status of [500, 500, 500, 200]) {
      target.status = status;
      const fired = await a.request<{ requestId: string; traceId: string }>(
        'POST',
        '/api/jobs/nightly-export/trigger',
        {},
      );
      expect(fired.status).toBeLessThan(300);
      traces.push(fired.body.traceId);
      await waitFor('the run to end', finished(a, fired.body.requestId), 20_000);
    }
    await waitFor('two webhook messages', async () => hitsOf('twice').length + hitsOf('back').length >= 2, 20_000);
    await new Promise((r) => setTimeout(r, 1000));
    expect(hitsOf('twice').map((h) => JSON.parse(h.body) as Message)).toEqual([
      expect.objectContaining({ kind: 'CONSECUTIVE_FAILURES', title: 'job nightly-export failed 2 times in a row' }),
    ]);
    expect(hitsOf('back').map((h) => (JSON.parse(h.body) as Message).title)).toEqual([
      'job nightly-export recovered after 3 failure(s)',
    ]);
    const hit = hitsOf('twice')[0];
    expect(hit.headers['x-tickwheel-signature']).toMatch(/^v1=[0-9a-f]{64}$/);
    // A new span of the newest failed run's trace (the second fire), docs/observability.md "Tracing".
    expect(parseTraceparent(hit.headers.traceparent)?.traceId).toBe(traces[1]);
    const listed = await messages(a, 'twice');
    expect(listed).toEqual([
      expect.objectContaining({ eventCount: 1, deliveries: [expect.objectContaining({ state: 'DELIVERED' })] }),
    ]);
  }, 90_000);

  it('should send the first failure at once and group the rest of the quiet period into one message', async () => {
    const a = await app('group');
    await rule(a, { name: 'tasks-fail', kind: 'FINAL_FAILURE', target: 'TASK', quietMs: 3000, groupBy: 'RULE' });
    target.status = 500;
    const fail = async (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const res = await a.submitTask({ requestId: `f${i}`, handler: 'http', params: { url: target.url } });
        expect(res.status).toBe(202);
      }
      for (let i = from; i < to; i++) await waitFor('the task to fail', finished(a, `f${i}`), 20_000);
    };
    await fail(0, 1);
    await waitFor('the first message', async () => hitsOf('tasks-fail').length === 1, 20_000);
    const firstAt = Date.now();
    await fail(1, 5);
    await waitFor('the grouped message', async () => hitsOf('tasks-fail').length === 2, 20_000);
    // The four failures within the quiet period went out as one message when it ended, not one each.
    expect(Date.now() - firstAt).toBeGreaterThan(2000);
    const bodies = hitsOf('tasks-fail').map((h) => JSON.parse(h.body) as { count: number; events: unknown[] });
    expect(bodies.map((b) => [b.count, b.events.length])).toEqual([
      [1, 1],
      [4, 4],
    ]);
    expect((await messages(a, 'tasks-fail')).map((m) => m.eventCount).sort()).toEqual([1, 4]);
  }, 60_000);

  it('should report a run past its deadline, a run not started in time, and work waiting for an unadvertised handler', async () => {
    const a = await app('scans');
    await createJob(a, { code: 'orphan', handler: 'ghost-handler' });
    await rule(a, { name: 'late', kind: 'LATE_START', jobCode: 'orphan', thresholdMs: 500 });
    await rule(a, { name: 'deadline', kind: 'DEADLINE', jobCode: 'orphan', withinMs: 1000 });
    await rule(a, { name: 'nobody', kind: 'HANDLER_UNAVAILABLE', thresholdMs: 1000 });
    expect((await a.request('POST', '/api/jobs/orphan/trigger', {})).status).toBeLessThan(300);
    await waitFor(
      'three messages',
      async () => ['late', 'deadline', 'nobody'].every((r) => hitsOf(r).length > 0),
      20_000,
    );
    const title = (r: string) => (JSON.parse(hitsOf(r)[0].body) as Message).title;
    expect(title('late')).toMatch(/^job orphan: the run fired \S+ had not started \d+ ms after its fire$/);
    expect(title('deadline')).toMatch(/^job orphan: the run fired \S+ had not finished by \S+$/);
    expect(title('nobody')).toBe(
      '1 task(s) wait for handler ghost-handler: no live executor or app worker advertises it',
    );
    await new Promise((r) => setTimeout(r, 1500));
    // Scans repeat every 300 ms; each run is reported once per rule.
    expect(['late', 'deadline', 'nobody'].map((r) => hitsOf(r).length)).toEqual([1, 1, 1]);
  }, 60_000);

  it("should record an app's failing callback host by default, and tell an app that asked for it", async () => {
    const [a, b] = await Promise.all([app('hosts-a'), app('hosts-b')]);
    await rule(b, { name: 'cb-host', kind: 'CALLBACK_HOST_FAILING' });
    const port = await freePort();
    for (const c of [a, b]) {
      for (let i = 0; i < 3; i++) {
        const task = { requestId: `cb${i}`, handler: 'noop', callbackUrl: `http://127.0.0.1:${port}/cb` };
        expect((await c.submitTask(task)).status).toBe(202);
      }
    }
    const title = new RegExp(`^callbacks to 127\\.0\\.0\\.1:${port} are failing: \\d+ tries in a row failed$`);
    await waitFor("a's built-in message", async () => (await messages(a)).length === 1, 30_000);
    const [builtIn] = await messages(a);
    expect(builtIn).toMatchObject({ rule: 'callback-host-failing', kind: 'CALLBACK_HOST_FAILING', deliveries: [] });
    expect(builtIn.title).toMatch(title);
    await waitFor("b's webhook", async () => hitsOf('cb-host').length === 1, 30_000);
    expect((JSON.parse(hitsOf('cb-host')[0].body) as Message).title).toMatch(title);
    expect((await messages(b)).map((m) => m.rule)).toEqual(['cb-host']);
  }, 60_000);

  it('should send a test message through every channel of a rule on request', async () => {
    const a = await app('test');
    await rule(a, { name: 'probe', kind: 'FINAL_FAILURE' });
    const res = await a.request<{ notificationId: string }>('POST', '/api/notifications/rules/probe/test', {});
    expect(res.status).toBe(200);
    await waitFor('the test message', async () => hitsOf('probe').length === 1, 10_000);
    expect(JSON.parse(hitsOf('probe')[0].body)).toMatchObject({ notificationId: res.body.notificationId });
    // Tests stop at the app's hourly cap (NOTIFY_MAX_PER_HOUR, 6 here): they could otherwise pile up OPEN messages.
    for (let i = 1; i < 6; i++)
      expect((await a.request('POST', '/api/notifications/rules/probe/test', {})).status).toBe(200);
    const over = await a.request('POST', '/api/notifications/rules/probe/test', {});
    expectProblem(over, 429, {});
    expect(over.headers.get('retry-after')).toBe('300');
  }, 30_000);
});
