import { DEFAULT_SCOPES, Scope } from '../../src/modules/metadata/index.js';
import { MAX_WORKER_NODES_PER_APP, RUNNING_PER_CAPACITY } from '../../src/modules/workers/index.js';
import { appClient, expectProblem } from '../utils/tenancy.js';
import { standaloneEnv, startNode, type TestNode } from '../utils/test-node.js';

const WORKER: readonly Scope[] = [...DEFAULT_SCOPES, Scope.WORKER];
type Attempt = { instanceId: string; fencingToken: number };
type Registered = { nodeId: string };

/**
 * Standalone (SQLite, in-process coordination): the migration's column, the registry advert and the long poll of the
 * in-process adapter; and the submit check, which there refuses a handler no node could run for the submitting app.
 */
describe('App worker protocol (standalone)', () => {
  let node: TestNode;
  beforeAll(async () => {
    node = await startNode(standaloneEnv({ LOG_LEVEL: 'error' }));
  }, 60_000);
  afterAll(async () => node?.close());

  it("should accept app A's greet task once A's worker serves greet, refuse app B's (no node may take it), and run A's to SUCCESS", async () => {
    const a = await appClient(node, 'wsa-a', WORKER);
    const b = await appClient(node, 'wsa-b', WORKER);
    expectProblem(await a.request('POST', '/api/tasks', { handler: 'greet' }), 400, { field: 'handler' });
    const reg = await a.request<Registered>('POST', '/api/worker/nodes', { handlers: ['greet'], capacity: 1 });
    expect(reg.status).toBe(201);
    const nodeId = reg.body.nodeId;
    const sent = await a.request<{ requestId: string }>('POST', '/api/tasks', { handler: 'greet' });
    expect(sent.status).toBe(202);
    expectProblem(await b.request('POST', '/api/tasks', { handler: 'greet' }), 400, { field: 'handler' });
    const claimed = await a.request<{ items: Attempt[] }>('POST', `/api/worker/nodes/${nodeId}/claims`, {
      max: 5,
      waitMs: 5000,
    });
    expect(claimed.body.items).toHaveLength(1);
    const [att] = claimed.body.items;
    const fin = await a.request('POST', `/api/worker/nodes/${nodeId}/attempts/${att.instanceId}/finish`, {
      fencingToken: att.fencingToken,
      outcome: 'SUCCESS',
      result: 1,
    });
    expect(fin.body).toEqual({ status: 'SUCCESS', final: true });
    const rows = await node.ds.query('SELECT app_id AS appId FROM executor_node WHERE node_id = ?', [nodeId]);
    expect(rows).toEqual([{ appId: a.appId }]);
    expect((await a.request('DELETE', `/api/worker/nodes/${nodeId}`)).status).toBe(204);
  }, 60_000);

  it('should never let a worker hold more RUNNING attempts than twice its capacity (handlers and finishes on the way)', async () => {
    const a = await appClient(node, 'wsa-cap', WORKER);
    const reg = await a.request<Registered>('POST', '/api/worker/nodes', { handlers: ['squeeze'], capacity: 1 });
    const nodeId = reg.body.nodeId;
    for (let i = 0; i < 3; i++)
      expect((await a.request('POST', '/api/tasks', { handler: 'squeeze' })).status).toBe(202);
    const claim = (waitMs: number) =>
      a.request<{ items: Attempt[] }>('POST', `/api/worker/nodes/${nodeId}/claims`, { max: 5, waitMs });
    const held: Attempt[] = [];
    for (let i = 0; i < 10 && held.length < RUNNING_PER_CAPACITY; i++) held.push(...(await claim(2000)).body.items);
    expect(held).toHaveLength(RUNNING_PER_CAPACITY * 1); // capacity 1
    expect((await claim(500)).body.items).toEqual([]);
    const [att] = held;
    await a.request('POST', `/api/worker/nodes/${nodeId}/attempts/${att.instanceId}/finish`, {
      fencingToken: att.fencingToken,
      outcome: 'SUCCESS',
    });
    const third = await claim(5000);
    expect(third.body.items).toHaveLength(1);
    expect(held.map((h) => h.instanceId)).not.toContain(third.body.items[0].instanceId);
  }, 60_000);

  it('should take back at once what a deregistered node held: its queued and its running instances', async () => {
    const a = await appClient(node, 'wsa-dereg', WORKER);
    const reg = await a.request<Registered>('POST', '/api/worker/nodes', { handlers: ['leave'], capacity: 1 });
    const nodeId = reg.body.nodeId;
    const ids: string[] = [];
    for (let i = 0; i < 2; i++)
      ids.push(
        (await a.request<{ requestId: string }>('POST', '/api/tasks', { handler: 'leave', maxAttempts: 2 })).body
          .requestId,
      );
    const claimed = await a.request<{ items: Attempt[] }>('POST', `/api/worker/nodes/${nodeId}/claims`, {
      max: 1,
      waitMs: 5000,
    });
    expect(claimed.body.items).toHaveLength(1);
    const onNode = () =>
      node.ds.query("SELECT status FROM job_instance WHERE app_id = ? AND node_id = ? AND status <> 'PENDING'", [
        a.appId,
        nodeId,
      ]);
    expect((await onNode()).map((r: { status: string }) => r.status).sort()).toEqual(['DISPATCHED', 'RUNNING']);
    expect((await a.request('DELETE', `/api/worker/nodes/${nodeId}`)).status).toBe(204);
    expect(await onNode()).toEqual([]);
    const statuses = await node.ds.query('SELECT status FROM job_instance WHERE app_id = ?', [a.appId]);
    expect(statuses.map((r: { status: string }) => r.status)).toEqual(['PENDING', 'PENDING']);
  }, 60_000);

  it('should refuse a registration past MAX_WORKER_NODES_PER_APP live nodes of the app (409, no row written)', async () => {
    const a = await appClient(node, 'wsa-many', WORKER);
    const body = { handlers: ['many'], capacity: 1 };
    for (let i = 0; i < MAX_WORKER_NODES_PER_APP; i++)
      expect((await a.request('POST', '/api/worker/nodes', body)).status).toBe(201);
    expectProblem(await a.request('POST', '/api/worker/nodes', body), 409);
    const [{ n }] = await node.ds.query('SELECT COUNT(*) AS n FROM executor_node WHERE app_id = ?', [a.appId]);
    expect(Number(n)).toBe(MAX_WORKER_NODES_PER_APP);
    const other = await appClient(node, 'wsa-other', WORKER);
    expect((await other.request('POST', '/api/worker/nodes', body)).status).toBe(201);
  }, 60_000);
});
