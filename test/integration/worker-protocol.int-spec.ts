import { DEFAULT_SCOPES, Scope } from '../../src/modules/metadata/index.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import { appClient, expectProblem } from '../utils/tenancy.js';
import { type AppClient, clusterEnv, startNode, type TestNode, uniqueNamespace, waitFor } from '../utils/test-node.js';

const WORKER: readonly Scope[] = [...DEFAULT_SCOPES, Scope.WORKER];
type Attempt = {
  instanceId: string;
  fencingToken: number;
  handler: string;
  appId: string;
  attempt: number;
  maxAttempts: number;
};
type Registered = { nodeId: string; leaseMs: number; maxClaimWaitMs: number; heartbeatIntervalMs: number };

/**
 * The app worker protocol (docs/workers.md) driven raw and signed against a live api (all roles, MariaDB + Redis):
 * the lifecycle of one attempt, the app boundary on every route, fencing, bounds, revocation and a silent node's
 * take-back.
 */
describe('App worker protocol (MariaDB + Redis)', () => {
  const ns = uniqueNamespace('int-wrk');
  let node: TestNode;
  let a: AppClient;
  let b: AppClient;

  beforeAll(async () => {
    node = await startNode(clusterEnv(ns, { LEASE_MS: '4000', LEASE_RENEW_MS: '1000', LOG_LEVEL: 'error' }));
    a = await appClient(node, 'wrk-a', WORKER);
    b = await appClient(node, 'wrk-b', WORKER);
  }, 60_000);

  afterAll(async () => {
    await deleteNamespaceRows(node?.ds, ns);
    await node?.close();
  });

  const beating: NodeJS.Timeout[] = [];
  afterEach(() => beating.splice(0).forEach(clearInterval));
  const register = async (c: AppClient, handlers = ['greet'], capacity = 4): Promise<Registered> => {
    const res = await c.request<Registered>('POST', '/api/worker/nodes', { handlers, capacity, host: 'test-host' });
    expect(res.status).toBe(201);
    return res.body;
  };
  /** Heartbeats for the node every heartbeatIntervalMs until the test ends, as a worker does. */
  const keepAlive = (c: AppClient, reg: Registered) =>
    beating.push(
      setInterval(
        () => void c.request('POST', `/api/worker/nodes/${reg.nodeId}/heartbeat`, { active: 0 }),
        reg.heartbeatIntervalMs,
      ),
    );
  const submit = async (c: AppClient, extra: Record<string, unknown> = {}) => {
    const res = await c.request<{ requestId: string }>('POST', '/api/tasks', { handler: 'greet', ...extra });
    expect(res.status).toBe(202);
    return res.body.requestId;
  };
  const claim = async (c: AppClient, nodeId: string, waitMs = 3000, max = 10): Promise<Attempt[]> => {
    const res = await c.request<{ items: Attempt[] }>('POST', `/api/worker/nodes/${nodeId}/claims`, { max, waitMs });
    expect(res.status).toBe(200);
    return res.body.items;
  };
  const claimOne = async (c: AppClient, nodeId: string): Promise<Attempt> => {
    let got: Attempt[] = [];
    await waitFor('an attempt to claim', async () => (got = await claim(c, nodeId, 1000)).length > 0, 20_000);
    expect(got).toHaveLength(1);
    return got[0];
  };
  const row = async (id: string) =>
    (
      await node.ds.query(
        'SELECT status, fencing_token AS token, node_id AS nodeId, attempt, checkpoint, result, progress FROM job_instance WHERE id = ?',
        [id],
      )
    )[0] as Record<string, unknown>;
  const at = (nodeId: string, instanceId: string, what: string) =>
    `/api/worker/nodes/${nodeId}/attempts/${instanceId}/${what}`;

  it('should run one attempt through register, heartbeat, claim, leases, checkpoint, progress, logs and finish to SUCCESS, list the node with its appId, then deregister it', async () => {
    const reg = await register(a);
    keepAlive(a, reg);
    expect(reg.nodeId).toMatch(new RegExp(`^w-${a.appId}-[0-9a-f]{12}$`));
    expect(reg).toMatchObject({ leaseMs: 4000, heartbeatIntervalMs: 500, maxClaimWaitMs: 20_000 });
    const hb = await a.request('POST', `/api/worker/nodes/${reg.nodeId}/heartbeat`, { active: 0 });
    expect(hb.status).toBe(204);
    const requestId = await submit(a, { params: { name: 'ada' } });
    const att = await claimOne(a, reg.nodeId);
    expect(att).toMatchObject({ handler: 'greet', appId: a.appId, attempt: 1, lastCheckpoint: null });
    expect(await row(att.instanceId)).toMatchObject({ status: 'RUNNING', nodeId: reg.nodeId });
    const ref = { instanceId: att.instanceId, fencingToken: att.fencingToken };
    const leases = await a.request<{ lost: unknown[]; leaseUntil: number }>(
      'POST',
      `/api/worker/nodes/${reg.nodeId}/leases`,
      { attempts: [ref] },
    );
    expect(leases.status).toBe(200);
    expect(leases.body.lost).toEqual([]);
    expect(leases.body.leaseUntil).toBeGreaterThan(Date.now());
    const token = att.fencingToken;
    expect(
      (await a.request('POST', at(reg.nodeId, att.instanceId, 'checkpoint'), { fencingToken: token, state: { i: 3 } }))
        .status,
    ).toBe(204);
    expect(
      (
        await a.request('POST', at(reg.nodeId, att.instanceId, 'progress'), {
          fencingToken: token,
          fraction: 0.5,
          note: 'half',
        })
      ).status,
    ).toBe(204);
    const line = { level: 'info', message: 'hello from the worker', at: Date.now() };
    expect(
      (await a.request('POST', at(reg.nodeId, att.instanceId, 'logs'), { fencingToken: token, lines: [line] })).status,
    ).toBe(204);
    expect(await row(att.instanceId)).toMatchObject({ checkpoint: '{"i":3}' });
    const fin = await a.request('POST', at(reg.nodeId, att.instanceId, 'finish'), {
      fencingToken: token,
      outcome: 'SUCCESS',
      result: { greeted: 'ada' },
    });
    expect(fin.status).toBe(200);
    expect(fin.body).toEqual({ status: 'SUCCESS', final: true });
    const task = await a.request<Record<string, unknown>>('GET', `/api/tasks/${requestId}`);
    expect(task.body).toMatchObject({ status: 'SUCCESS', result: { greeted: 'ada' } });
    const logs = await a.request<{ items: Array<{ line: string }> }>('GET', `/api/tasks/${requestId}/logs`);
    expect(logs.body.items.map((l) => l.line)).toContain('hello from the worker');
    const attempts = await node.ds.query('SELECT status, node_id AS nodeId FROM job_attempt WHERE instance_id = ?', [
      att.instanceId,
    ]);
    expect(attempts).toEqual([{ status: 'SUCCESS', nodeId: reg.nodeId }]);

    const listed = await a.request<{ items: Array<{ nodeId: string; appId: string | null }> }>('GET', '/api/nodes');
    expect(listed.body.items).toContainEqual(expect.objectContaining({ nodeId: reg.nodeId, appId: a.appId }));
    // the trusted executor of this process, once A names a handler it serves (A has no work of its own there)
    const executors = await a.request<{ items: Array<{ appId: string | null }> }>('GET', '/api/nodes?handler=noop');
    expect(executors.body.items.some((n) => n.appId === null)).toBe(true);
    const seenByB = await b.request<{ items: Array<{ nodeId: string }> }>('GET', '/api/nodes');
    expect(seenByB.body.items.map((n) => n.nodeId)).not.toContain(reg.nodeId);
    const admin = await appClient(node, 'wrk-adm', [Scope.ADMIN]);
    const all = await admin.request<{ items: Array<{ nodeId: string }> }>('GET', '/api/nodes');
    expect(all.body.items.map((n) => n.nodeId)).toContain(reg.nodeId);

    expect((await a.request('DELETE', `/api/worker/nodes/${reg.nodeId}`)).status).toBe(204);
    expectProblem(await a.request('POST', `/api/worker/nodes/${reg.nodeId}/heartbeat`, { active: 0 }), 404);
    const stopped = await node.ds.query(
      'SELECT app_id AS appId, stopped_at AS stoppedAt FROM executor_node WHERE node_id = ?',
      [reg.nodeId],
    );
    expect(stopped[0].appId).toBe(a.appId);
    expect(stopped[0].stoppedAt).not.toBeNull();
  }, 60_000);

  it("should never route app B's task to app A's worker advertising the same handler, and keep A off B's nodes and instances", async () => {
    const regA = await register(a);
    keepAlive(a, regA);
    const requestId = await submit(b);
    expect(await claim(a, regA.nodeId, 2000)).toEqual([]);
    const [bRow] = await node.ds.query('SELECT id, status FROM job_instance WHERE app_id = ? AND request_id = ?', [
      b.appId,
      requestId,
    ]);
    expect(bRow.status).toBe('PENDING');
    const regB = await register(b);
    keepAlive(b, regB);
    const att = await claimOne(b, regB.nodeId);
    expect(att.instanceId).toBe(bRow.id);
    const before = await row(att.instanceId);
    const ref = { instanceId: att.instanceId, fencingToken: att.fencingToken };
    // A names B's node: 404 on every node route.
    for (const [method, path, body] of [
      ['POST', `/api/worker/nodes/${regB.nodeId}/heartbeat`, { active: 0 }],
      ['POST', `/api/worker/nodes/${regB.nodeId}/claims`, { max: 1, waitMs: 0 }],
      ['POST', `/api/worker/nodes/${regB.nodeId}/leases`, { attempts: [ref] }],
      ['POST', at(regB.nodeId, att.instanceId, 'finish'), { fencingToken: att.fencingToken, outcome: 'SUCCESS' }],
      ['DELETE', `/api/worker/nodes/${regB.nodeId}`, undefined],
    ] as Array<[string, string, unknown]>)
      expectProblem(await a.request(method, path, body), 404);
    // A names B's instance from its own node: 404, or lost on a renewal.
    const bodies: Record<string, Record<string, unknown>> = {
      checkpoint: { state: 1 },
      progress: { fraction: 1 },
      logs: { lines: [{ level: 'info', message: 'x', at: Date.now() }] },
      finish: { outcome: 'FAILED', error: 'not yours', retryable: false },
    };
    for (const [what, body] of Object.entries(bodies)) {
      const payload = { fencingToken: att.fencingToken, ...body };
      expectProblem(await a.request('POST', at(regA.nodeId, att.instanceId, what), payload), 404);
    }
    const renewed = await a.request<{ lost: Array<{ reason: string }> }>(
      'POST',
      `/api/worker/nodes/${regA.nodeId}/leases`,
      { attempts: [ref] },
    );
    expect(renewed.body.lost).toEqual([{ ...ref, reason: 'LEASE_LOST' }]);
    expect(await row(att.instanceId)).toEqual(before);
    const fin = await b.request('POST', at(regB.nodeId, att.instanceId, 'finish'), {
      fencingToken: att.fencingToken,
      outcome: 'SUCCESS',
    });
    expect(fin.status).toBe(200);
  }, 60_000);

  it('should refuse built-in handler names, callers without the worker scope, and bad input to every route (4xx naming the field, nothing changed)', async () => {
    for (const builtin of ['noop', 'http', 'shell', 'Shell', 'NOOP'])
      expectProblem(await a.request('POST', '/api/worker/nodes', { handlers: ['greet', builtin], capacity: 1 }), 400, {
        field: 'handlers',
      });
    const plain = await appClient(node, 'wrk-plain', DEFAULT_SCOPES);
    expectProblem(await plain.request('POST', '/api/worker/nodes', { handlers: ['greet'], capacity: 1 }), 403, {
      scope: 'worker',
    });
    const nodesBefore = await node.ds.query('SELECT COUNT(*) AS n FROM executor_node WHERE app_id IN (?, ?)', [
      a.appId,
      plain.appId,
    ]);
    const reg = await register(a);
    keepAlive(a, reg);
    const requestId = await submit(a);
    const att = await claimOne(a, reg.nodeId);
    expectProblem(await plain.request('POST', `/api/worker/nodes/${reg.nodeId}/heartbeat`, { active: 0 }), 403, {
      scope: 'worker',
    });
    const before = await row(att.instanceId);
    const t = att.fencingToken;
    const n = `/api/worker/nodes/${reg.nodeId}`;
    const cases: Array<[string, unknown, string]> = [
      ['/api/worker/nodes', { handlers: [], capacity: 1 }, 'handlers'],
      ['/api/worker/nodes', { handlers: ['bad name!'], capacity: 1 }, 'handlers'],
      ['/api/worker/nodes', { handlers: Array.from({ length: 101 }, (_, i) => `h${i}`), capacity: 1 }, 'handlers'],
      ['/api/worker/nodes', { handlers: ['greet'], capacity: 0 }, 'capacity'],
      ['/api/worker/nodes', { handlers: ['greet'], capacity: 1001 }, 'capacity'],
      ['/api/worker/nodes', { handlers: ['greet'], capacity: 1, host: 'h'.repeat(101) }, 'host'],
      ['/api/worker/nodes', { handlers: ['greet'], capacity: 1, extra: 1 }, 'extra'],
      [`${n}/heartbeat`, { active: -1 }, 'active'],
      [`${n}/heartbeat`, { active: 5 }, 'active'],
      [`${n}/heartbeat`, { active: 0, draining: 'yes' }, 'draining'],
      [`${n}/claims`, { max: 0, waitMs: 0 }, 'max'],
      [`${n}/claims`, { max: 101, waitMs: 0 }, 'max'],
      [`${n}/claims`, { max: 1, waitMs: 20_001 }, 'waitMs'],
      [`${n}/claims`, { max: 1 }, 'waitMs'],
      [`${n}/leases`, { attempts: [{ instanceId: att.instanceId }] }, 'attempts[0].fencingToken'],
      [
        `${n}/leases`,
        { attempts: Array.from({ length: 1001 }, () => ({ instanceId: 'a', fencingToken: 1 })) },
        'attempts',
      ],
      [at(reg.nodeId, att.instanceId, 'checkpoint'), { fencingToken: t }, 'state'],
      [at(reg.nodeId, att.instanceId, 'checkpoint'), { fencingToken: -1, state: 1 }, 'fencingToken'],
      [at(reg.nodeId, att.instanceId, 'checkpoint'), { fencingToken: t, state: 'x'.repeat(70_000) }, 'state'],
      [at(reg.nodeId, att.instanceId, 'progress'), { fencingToken: t, fraction: 1.5 }, 'fraction'],
      [at(reg.nodeId, att.instanceId, 'progress'), { fencingToken: t, fraction: 0.1, note: 'n'.repeat(257) }, 'note'],
      [at(reg.nodeId, att.instanceId, 'logs'), { fencingToken: t, lines: [] }, 'lines'],
      [
        at(reg.nodeId, att.instanceId, 'logs'),
        { fencingToken: t, lines: [{ level: 'debug', message: 'x', at: 1 }] },
        'lines[0].level',
      ],
      [
        at(reg.nodeId, att.instanceId, 'logs'),
        { fencingToken: t, lines: [{ level: 'info', message: 'x'.repeat(4097), at: 1 }] },
        'lines[0].message',
      ],
      [at(reg.nodeId, att.instanceId, 'finish'), { fencingToken: t, outcome: 'DONE' }, 'outcome'],
      [
        at(reg.nodeId, att.instanceId, 'finish'),
        { fencingToken: t, outcome: 'FAILED', error: 'e'.repeat(4001) },
        'error',
      ],
      [at(reg.nodeId, att.instanceId, 'finish'), { outcome: 'SUCCESS' }, 'fencingToken'],
    ];
    for (const [path, body, field] of cases) {
      const res = await a.request('POST', path, body);
      expect({ path, field, status: res.status }).toEqual({ path, field, status: 400 });
      expectProblem(res, 400, { field });
    }
    expect(await row(att.instanceId)).toEqual(before);
    const nodesAfter = await node.ds.query('SELECT COUNT(*) AS n FROM executor_node WHERE app_id IN (?, ?)', [
      a.appId,
      plain.appId,
    ]);
    expect(Number(nodesAfter[0].n)).toBe(Number(nodesBefore[0].n) + 1);
    const task = await a.request<{ status: string }>('GET', `/api/tasks/${requestId}`);
    expect(task.body.status).toBe('RUNNING');
    await a.request('POST', at(reg.nodeId, att.instanceId, 'finish'), { fencingToken: t, outcome: 'SUCCESS' });
  }, 60_000);

  it('should refuse a stale fencing token on checkpoint and finish (409, nothing written), and report a cancelled attempt REVOKED on its next leases call', async () => {
    const reg = await register(a);
    keepAlive(a, reg);
    const requestId = await submit(a, { maxAttempts: 3 });
    const att = await claimOne(a, reg.nodeId);
    const stale = att.fencingToken - 1;
    const before = await row(att.instanceId);
    expectProblem(
      await a.request('POST', at(reg.nodeId, att.instanceId, 'checkpoint'), { fencingToken: stale, state: 1 }),
      409,
      { field: 'fencingToken' },
    );
    expectProblem(
      await a.request('POST', at(reg.nodeId, att.instanceId, 'finish'), { fencingToken: stale, outcome: 'SUCCESS' }),
      409,
    );
    expect(await row(att.instanceId)).toEqual(before);

    expect((await a.request('POST', `/api/tasks/${requestId}/cancel`)).status).toBe(200);
    const ref = { instanceId: att.instanceId, fencingToken: att.fencingToken };
    const leases = await a.request<{ lost: unknown[] }>('POST', `/api/worker/nodes/${reg.nodeId}/leases`, {
      attempts: [ref],
    });
    expect(leases.body.lost).toEqual([{ ...ref, reason: 'REVOKED' }]);
    expectProblem(
      await a.request('POST', at(reg.nodeId, att.instanceId, 'checkpoint'), {
        fencingToken: att.fencingToken,
        state: 2,
      }),
      409,
    );
    const fin = await a.request('POST', at(reg.nodeId, att.instanceId, 'finish'), {
      fencingToken: att.fencingToken,
      outcome: 'CANCELLED',
    });
    expect(fin.status).toBe(200);
    expect((await row(att.instanceId)).status).toBe('CANCELLED');
  }, 60_000);

  it('should retry a FAILED attempt by the instance policy and hand back a SHUTDOWN one without using up an attempt', async () => {
    const reg = await register(a);
    keepAlive(a, reg);
    await submit(a, { maxAttempts: 2, retryBackoffMs: 0 });
    const first = await claimOne(a, reg.nodeId);
    const failed = await a.request('POST', at(reg.nodeId, first.instanceId, 'finish'), {
      fencingToken: first.fencingToken,
      outcome: 'FAILED',
      error: 'boom',
    });
    expect(failed.body).toEqual({ status: 'PENDING', final: false });
    const second = await claimOne(a, reg.nodeId);
    expect(second).toMatchObject({ instanceId: first.instanceId, attempt: 2 });
    const back = await a.request('POST', at(reg.nodeId, second.instanceId, 'finish'), {
      fencingToken: second.fencingToken,
      outcome: 'SHUTDOWN',
    });
    expect(back.body).toEqual({ status: 'PENDING', final: false });
    // A hand-back is a new attempt that costs none: maxAttempts grows with it (decideOutcome's HAND_BACK).
    const third = await claimOne(a, reg.nodeId);
    expect(third).toMatchObject({ instanceId: first.instanceId, attempt: 3, maxAttempts: 3 });
    const done = await a.request('POST', at(reg.nodeId, third.instanceId, 'finish'), {
      fencingToken: third.fencingToken,
      outcome: 'FAILED',
      error: 'boom again',
    });
    expect(done.body).toEqual({ status: 'FAILED', final: true });
  }, 60_000);

  it("should take back a silent worker node's RUNNING instance; the gone node's late calls are 404s and change nothing", async () => {
    const reg = await register(a);
    keepAlive(a, reg); // until it holds the attempt: under load the dispatch alone may outlast NODE_OFFLINE_AFTER_MS
    await submit(a, { maxAttempts: 2 });
    const att = await claimOne(a, reg.nodeId);
    clearInterval(beating.pop());
    // No heartbeat and no lease renewal from here: the node expires (NODE_OFFLINE_AFTER_MS 3 s) or the lease ends.
    await waitFor(
      "the silent node's attempt to be taken back",
      async () => (await row(att.instanceId)).status !== 'RUNNING',
      30_000,
    );
    const after = await row(att.instanceId);
    expect(['PENDING', 'DISPATCHED']).toContain(after.status);
    expectProblem(await a.request('POST', `/api/worker/nodes/${reg.nodeId}/heartbeat`, { active: 1 }), 404);
    expectProblem(
      await a.request('POST', at(reg.nodeId, att.instanceId, 'finish'), {
        fencingToken: att.fencingToken,
        outcome: 'SUCCESS',
      }),
      404,
    );
    expect((await row(att.instanceId)).status).not.toBe('SUCCESS');
    // From a live node of the app, the old token's finish loses: 409.
    const other = await register(a);
    keepAlive(a, other);
    expectProblem(
      await a.request('POST', at(other.nodeId, att.instanceId, 'finish'), {
        fencingToken: att.fencingToken,
        outcome: 'SUCCESS',
      }),
      409,
    );
    expect((await row(att.instanceId)).status).not.toBe('SUCCESS');
  }, 60_000);
});
