import { randomBytes } from 'node:crypto';
import { TickwheelClient, TickwheelResponse } from '../../src/client/tickwheel-client.js';
import {
  CallbackDeliveryRepository,
  DEFAULT_SCOPES,
  JobInstanceStatus,
  Scope,
} from '../../src/modules/metadata/index.js';
import { namespaceRows, rowsDiff } from '../utils/namespace-rows.js';
import { expectProblem, SHAPES } from '../utils/tenancy.js';
import { signedClient, startNode, TestNode, UNLIMITED, waitFor } from '../utils/test-node.js';
import { createJob } from '../utils/jobs.js';

type Task = Record<string, unknown> & { status: string; instanceId: string; callbackUrl: string | null };
type CallbackView = {
  deliveryId: string;
  url: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
};
type Registration = { handler: string | null; url: string; createdAt: string; updatedAt: string };

const HOOK = 'https://hooks.example.com/x';
const JOB = { handler: 'noop', triggerType: 'CRON', triggerExpr: '0 0 3 * * *', enabled: false };

/** Callback URLs the API refuses (docs/callbacks.md "Where a callback goes"), each with what the detail says. */
const REFUSED: Array<[string, string, RegExp]> = [
  ['loopback', 'http://127.0.0.1:8080/x', /loopback/],
  ['localhost', 'http://localhost/x', /localhost|loopback/],
  ['unspecified', 'http://0.0.0.0/x', /0\.0\.0\.0/],
  ['metadata', 'http://169.254.169.254/latest/meta-data', /169\.254\.169\.254/],
  ['link-local', 'http://169.254.10.1/x', /link-local/],
  ['IPv6 loopback', 'http://[::1]:9000/x', /loopback/],
  ['ftp', 'ftp://hooks.example.com/x', /must be http: or https:/],
  ['credentials', 'https://user:pass@hooks.example.com/x', /user name or password/],
  ['too long', `${HOOK}/${'a'.repeat(2048)}`, /2048/],
  ['not a URL', 'not a url', /not an absolute URL/],
];

/**
 * The callbacks API surface (docs/callbacks.md, docs/api.md "Callbacks"): callbackUrl on tasks, batch items and
 * jobs, checked without DNS (refused: a 400 naming the field, nothing written); the register/list/delete routes
 * per app; the `callback` view and the redeliver routes. The default egress policy (EGRESS_ALLOW=*): loopback
 * refused, as in production.
 */
describe.each(SHAPES)('callbacks API (%s)', (_shape, env) => {
  let node: TestNode;
  let run: string;
  let a: TickwheelClient;
  let b: TickwheelClient;
  // Deliveries by id only: the node's sender retries earlier tests' deliveries (their hosts do not resolve here)
  // whenever it likes; a refused request must add or remove none.
  const rows = async () => {
    const all = await namespaceRows(node.ds, node.config.namespace, run);
    return { ...all, callback_delivery: Object.fromEntries(Object.keys(all.callback_delivery).map((k) => [k, k])) };
  };
  const app = (name: string, scopes = DEFAULT_SCOPES, limits = UNLIMITED) =>
    signedClient(node, `${run}-${name}`, scopes, limits);

  beforeAll(async () => {
    node = await startNode(env({ EGRESS_ALLOW: '*' }));
    run = `cb${randomBytes(3).toString('hex')}`;
    [a, b] = await Promise.all([app('a'), app('b')]);
  }, 60_000);
  afterAll(async () => {
    await node?.close();
  });

  /** Asserts a 400 naming `field` whose detail matches `why`, and that no row changed. */
  async function refusedUnchanged(field: string, why: RegExp, send: () => Promise<TickwheelResponse>) {
    const before = await rows();
    const res = await send();
    const problem = expectProblem(res, 400, { field });
    expect(problem.detail).toMatch(why);
    expect(rowsDiff(before, await rows())).toEqual({});
  }

  describe.each(REFUSED)('a refused callback URL (%s)', (_name, url, why) => {
    it('should be a 400 naming the field at submit, in a batch, on job create and PATCH, and at register', async () => {
      await refusedUnchanged('callbackUrl', why, () => a.submitTask({ handler: 'noop', callbackUrl: url }));
      await refusedUnchanged('tasks[1].callbackUrl', why, () =>
        a.submitTasks([{ handler: 'noop' }, { handler: 'noop', callbackUrl: url }]),
      );
      const code = `refused-${randomBytes(3).toString('hex')}`;
      await refusedUnchanged('callbackUrl', why, () =>
        a.request('POST', '/api/jobs', { ...JOB, code, callbackUrl: url }),
      );
      await createJob(a, { ...JOB, code });
      await refusedUnchanged('callbackUrl', why, () => a.request('PATCH', `/api/jobs/${code}`, { callbackUrl: url }));
      await refusedUnchanged('url', why, () => a.request('POST', '/api/callbacks/register', { url }));
      await refusedUnchanged('url', why, () => a.request('POST', '/api/callbacks/register', { url, handler: 'noop' }));
    });
  });

  it("should refuse a URL outside the app's egressAllow, naming the field", async () => {
    const narrow = await app('narrow', DEFAULT_SCOPES, { ...UNLIMITED, egressAllow: ['hooks.example.com'] });
    await refusedUnchanged('callbackUrl', /egressAllow/, () =>
      narrow.submitTask({ handler: 'noop', callbackUrl: 'https://elsewhere.example.org/x' }),
    );
    expect((await narrow.submitTask({ handler: 'noop', callbackUrl: HOOK, delayMs: 3_600_000 })).status).toBe(202);
  });

  it('should store and show an allowed callbackUrl on a task, a batch item and a job (PATCH null clears it)', async () => {
    const sub = await a.submitTask({ requestId: 'with-hook', handler: 'noop', callbackUrl: HOOK, delayMs: 3_600_000 });
    expect(sub.status).toBe(202);
    expect((await a.getTask('with-hook')).body).toMatchObject({ callbackUrl: HOOK, callback: null });
    const batch = await a.submitTasks([
      { requestId: 'batch-plain', handler: 'noop', delayMs: 3_600_000 },
      { requestId: 'batch-hook', handler: 'noop', callbackUrl: `${HOOK}/2`, delayMs: 3_600_000 },
    ]);
    expect(batch.status).toBe(202);
    expect((await a.getTask('batch-plain')).body).toMatchObject({ callbackUrl: null, callback: null });
    expect((await a.getTask('batch-hook')).body).toMatchObject({ callbackUrl: `${HOOK}/2` });

    const created = await createJob(a, {
      ...JOB,
      code: 'hooked',
      callbackUrl: HOOK,
    });
    expect(created.callbackUrl).toBe(HOOK);
    const patched = await a.request<Record<string, unknown>>('PATCH', '/api/jobs/hooked', { callbackUrl: `${HOOK}/3` });
    expect(patched.body.callbackUrl).toBe(`${HOOK}/3`);
    const cleared = await a.request<Record<string, unknown>>('PATCH', '/api/jobs/hooked', { callbackUrl: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.callbackUrl).toBeNull();
    expect((await a.request<Record<string, unknown>>('GET', '/api/jobs/hooked')).body.callbackUrl).toBeNull();
  });

  it('should answer a replay with another callbackUrl (or none) with a 409, and the same one as a replay', async () => {
    const first = { requestId: 'replay-1', handler: 'noop', callbackUrl: HOOK, delayMs: 3_600_000 };
    expect((await a.submitTask(first)).status).toBe(202);
    const same = await a.submitTask(first);
    expect(same.status).toBe(202);
    expect(same.headers.get('idempotent-replayed')).toBe('true');
    expectProblem(await a.submitTask({ ...first, callbackUrl: `${HOOK}/other` }), 409, { field: 'requestId' });
    expectProblem(await a.submitTask({ ...first, callbackUrl: undefined }), 409, { field: 'requestId' });
    const batch = await a.submitTasks([{ ...first, callbackUrl: `${HOOK}/other` }]);
    expect(batch.body.results[0]).toMatchObject({ requestId: 'replay-1', error: { status: 409 } });
  });

  it("should register, list and delete an app's callbacks, isolated from another app's", async () => {
    const reg = await a.request<Registration>('POST', '/api/callbacks/register', { url: HOOK });
    expect(reg.status).toBe(200);
    expect(reg.body).toMatchObject({ handler: null, url: HOOK });
    expect((await a.request('POST', '/api/callbacks/register', { url: `${HOOK}/noop`, handler: 'noop' })).status).toBe(
      200,
    );
    const replaced = await a.request<Registration>('POST', '/api/callbacks/register', { url: `${HOOK}/new` });
    expect(replaced.body).toMatchObject({ handler: null, url: `${HOOK}/new`, createdAt: reg.body.createdAt });

    const listA = await a.request<{ items: Registration[] }>('GET', '/api/callbacks');
    expect(listA.status).toBe(200);
    expect(listA.body.items.map((r) => [r.handler, r.url])).toEqual([
      [null, `${HOOK}/new`],
      ['noop', `${HOOK}/noop`],
    ]);

    // B sees none of A's, cannot delete them, cannot name A without admin, and its own do not touch A's.
    const before = await rows();
    expect((await b.request('GET', '/api/callbacks')).body).toEqual({ total: 0, items: [] });
    expectProblem(await b.request('DELETE', '/api/callbacks'), 404);
    expectProblem(await b.request('DELETE', '/api/callbacks?handler=noop'), 404);
    expectProblem(await b.request('GET', `/api/callbacks?appId=${run}-a`), 403, { scope: 'admin' });
    expectProblem(await b.request('DELETE', `/api/callbacks?appId=${run}-a`), 403, { scope: 'admin' });
    expect(rowsDiff(before, await rows())).toEqual({});
    expect((await b.request('POST', '/api/callbacks/register', { url: `${HOOK}/b` })).status).toBe(200);
    expect((await a.request<{ items: Registration[] }>('GET', '/api/callbacks')).body.items).toHaveLength(2);

    const admin = await app('admin', [Scope.ADMIN]);
    const seen = await admin.request<{ items: Registration[] }>('GET', `/api/callbacks?appId=${run}-b`);
    expect(seen.body.items).toMatchObject([{ handler: null, url: `${HOOK}/b` }]);
    const byAdmin = await admin.request('POST', `/api/callbacks/register?appId=${run}-b`, { url: `${HOOK}/b2` });
    expect(byAdmin.status).toBe(200);
    expect((await b.request('GET', '/api/callbacks')).body).toMatchObject({ items: [{ url: `${HOOK}/b2` }] });
    const before2 = await rows();
    expectProblem(await admin.request('POST', `/api/callbacks/register?appId=${run}-none`, { url: HOOK }), 404);
    expect(rowsDiff(before2, await rows())).toEqual({});

    expect((await a.request('DELETE', '/api/callbacks?handler=noop')).status).toBe(204);
    expect((await a.request('DELETE', '/api/callbacks')).status).toBe(204);
    expectProblem(await a.request('DELETE', '/api/callbacks'), 404);
    expect((await a.request('GET', '/api/callbacks')).body).toEqual({ total: 0, items: [] });
    expect((await b.request<{ items: Registration[] }>('GET', '/api/callbacks')).body.items).toHaveLength(1);

    const actions = await auditActions(`${run}-a`);
    expect(actions.filter((x) => x === 'CALLBACK_REGISTER')).toHaveLength(3);
    expect(actions.filter((x) => x === 'CALLBACK_DELETE')).toHaveLength(2);
  });

  it('should need tasks:write to register or delete and tasks:read to list', async () => {
    const readOnly = await app('ro', [Scope.TASKS_READ]);
    const writeOnly = await app('wo', [Scope.TASKS_WRITE]);
    expectProblem(await readOnly.request('POST', '/api/callbacks/register', { url: HOOK }), 403, {
      scope: 'tasks:write',
    });
    expectProblem(await readOnly.request('DELETE', '/api/callbacks'), 403, { scope: 'tasks:write' });
    expectProblem(await writeOnly.request('GET', '/api/callbacks'), 403, { scope: 'tasks:read' });
  });

  it('should refuse a registration past the bound of 1000 per app with a 409, and still replace one', async () => {
    const full = await app('full');
    const now = Date.now();
    const values = Array.from({ length: 1000 }, (_, i) => [`${run}-full`, `h${i}`, HOOK, now, now]);
    await node.ds.query(
      `INSERT INTO callback_registration (app_id, handler, url, created_at, updated_at) VALUES ${values
        .map(() => '(?, ?, ?, ?, ?)')
        .join(', ')}`,
      values.flat(),
    );
    const before = await rows();
    const over = expectProblem(await full.request('POST', '/api/callbacks/register', { url: HOOK }), 409, {
      field: 'handler',
    });
    expect(over.detail).toMatch(/1000 callback registrations/);
    expect(rowsDiff(before, await rows())).toEqual({});
    const again = await full.request('POST', '/api/callbacks/register', { url: `${HOOK}/7`, handler: 'h7' });
    expect(again.status).toBe(200);
  });

  it('should show the callback once a delivery exists, redeliver it from the start, and 409 without one', async () => {
    const task = { requestId: 'to-redeliver', handler: 'noop', callbackUrl: HOOK };
    expect((await a.submitTask(task)).status).toBe(202);
    let view: Task | undefined;
    await waitFor('the task to succeed', async () => {
      view = (await a.getTask('to-redeliver')).body as Task;
      return view.status === 'SUCCESS';
    });
    const id = (view as Task).instanceId;
    const delivery = await writeDelivery(id, `${run}-a`, HOOK);

    const shown = (await a.getTask('to-redeliver')).body as Task & { callback: CallbackView };
    expect(shown.callback).toEqual({
      deliveryId: delivery,
      url: HOOK,
      status: 'DELIVERED',
      attempts: 3,
      lastStatusCode: 200,
      lastError: null,
      nextAttemptAt: null,
      deliveredAt: new Date(1_800_000_000_000).toISOString(),
    });

    // Another app cannot see or redeliver it.
    expectProblem(await b.request('POST', '/api/tasks/to-redeliver/callback/redeliver'), 404);
    const res = await a.request<CallbackView>('POST', '/api/tasks/to-redeliver/callback/redeliver');
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ deliveryId: delivery, url: HOOK, status: 'PENDING', attempts: 0 });
    expect(res.body).toMatchObject({ lastStatusCode: null, lastError: null, deliveredAt: null });
    expect(Date.parse(String(res.body.nextAttemptAt))).toBeLessThanOrEqual(Date.now());
    expect(await auditActions(`${run}-a`)).toContain('CALLBACK_REDELIVER');
    // Stored too (a sender, where one runs, may have tried it since: PENDING or RETRYING, never DELIVERED again).
    const after = ((await a.getTask('to-redeliver')).body as Task & { callback: CallbackView }).callback;
    expect(after).toMatchObject({ deliveryId: delivery, deliveredAt: null });
    expect(['PENDING', 'RETRYING']).toContain(after.status);

    // Not final yet: no delivery row, a 409 that changes nothing.
    expect((await a.submitTask({ requestId: 'later', handler: 'noop', delayMs: 3_600_000 })).status).toBe(202);
    const before = await rows();
    expectProblem(await a.request('POST', '/api/tasks/later/callback/redeliver'), 409);
    expectProblem(await a.request('POST', '/api/tasks/no-such-task/callback/redeliver'), 404);
    expect(rowsDiff(before, await rows())).toEqual({});
    expect(((await a.getTask('later')).body as { callback: unknown }).callback).toBeNull();
  });

  it("should copy the job's callbackUrl into its instances, show their callback and redeliver one", async () => {
    const c = await app('c');
    const created = await createJob(c, { ...JOB, code: 'fired', callbackUrl: HOOK });
    const fired = await c.request<Task>('POST', '/api/jobs/fired/trigger', {});
    expect(fired.status).toBe(202);
    expect(fired.body).toMatchObject({ callbackUrl: HOOK, callback: null });
    const id = fired.body.instanceId;
    const path = `/api/jobs/fired/instances/${id}`;
    await waitFor(
      'the instance to succeed',
      async () => (await c.request<Task>('GET', path)).body.status === 'SUCCESS',
    );

    expectProblem(await c.request('POST', `/api/jobs/${created.id}/instances/nope/callback/redeliver`), 404);
    expectProblem(await b.request('POST', `${path}/callback/redeliver`), 404);
    const delivery = await writeDelivery(id, `${run}-c`, HOOK);
    const list = await c.request<{ items: Array<Task & { callback: CallbackView }> }>(
      'GET',
      '/api/jobs/fired/instances',
    );
    expect(list.body.items).toMatchObject([{ instanceId: id, callbackUrl: HOOK, callback: { deliveryId: delivery } }]);
    expect((await c.request<Task>('GET', path)).body.callback).toMatchObject({ deliveryId: delivery, attempts: 3 });
    const res = await c.request<CallbackView>('POST', `${path}/callback/redeliver`);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ deliveryId: delivery, status: 'PENDING', attempts: 0 });
    const stored = (await c.request<Task & { callback: CallbackView }>('GET', path)).body.callback;
    expect(['PENDING', 'RETRYING']).toContain(stored.status);

    // A job with no callback URL, an app with no registration: its finished instance has no delivery.
    await createJob(c, { ...JOB, code: 'quiet' });
    const quiet = (await c.request<Task>('POST', '/api/jobs/quiet/trigger', {})).body;
    const quietPath = `/api/jobs/quiet/instances/${quiet.instanceId}`;
    await waitFor(
      'the quiet instance to end',
      async () => (await c.request<Task>('GET', quietPath)).body.status === 'SUCCESS',
    );
    expect((await c.request<Task>('GET', quietPath)).body).toMatchObject({ callbackUrl: null, callback: null });
    expectProblem(await c.request('POST', `${quietPath}/callback/redeliver`), 409);
  });

  /**
   * Writes the outbox row of finished instance `instanceId` as the finishing write does (a no-op when it wrote it
   * already), then makes it DELIVERED after 3 tries, which no sender touches again. @returns its deliveryId.
   */
  async function writeDelivery(instanceId: string, appId: string, url: string): Promise<string> {
    const repo = node.app.get(CallbackDeliveryRepository);
    const final = {
      ...{ id: instanceId, namespace: node.config.namespace, appId, handler: 'noop', callbackUrl: url },
      ...{ jobId: null, finalStatus: JobInstanceStatus.SUCCESS },
    };
    await repo.enqueueFinal(node.ds.manager, [final], 1);
    await node.ds.query(
      'UPDATE callback_delivery SET state = ?, attempts = 3, last_status_code = 200, last_error = NULL, ' +
        'delivered_at = ?, claim = NULL, lease_until = NULL WHERE instance_id = ?',
      ['DELIVERED', 1_800_000_000_000, instanceId],
    );
    return (await repo.findByInstances([instanceId])).get(instanceId)?.id as string;
  }

  async function auditActions(appId: string): Promise<string[]> {
    const got = (await node.ds.query('SELECT action FROM audit_log WHERE namespace = ? AND app_id = ?', [
      node.config.namespace,
      appId,
    ])) as Array<{ action: string }>;
    return got.map((r) => r.action);
  }
});
