import { DEFAULT_SCOPES, Scope } from '../../src/modules/metadata/index.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import { appClient } from '../utils/tenancy.js';
import { clusterEnv, startNode, type TestNode, uniqueNamespace } from '../utils/test-node.js';

type Attempt = { instanceId: string; fencingToken: number };

/**
 * An api-only process (ROLES=api) serves app workers with execution's writers and no executor of its own
 * (docs/architecture.md "Roles"): the only node it lists is the worker's, and a task runs through it to SUCCESS.
 */
describe('App workers on an api-only process (MariaDB + Redis)', () => {
  const ns = uniqueNamespace('int-wrk-api');
  let node: TestNode;
  beforeAll(async () => {
    node = await startNode(clusterEnv(ns, { ROLES: 'api', LOG_LEVEL: 'error' }));
  }, 60_000);
  afterAll(async () => {
    await deleteNamespaceRows(node?.ds, ns);
    await node?.close();
  });

  it('should register, route, claim and finish without an executor in the process', async () => {
    const a = await appClient(node, 'wapi', [...DEFAULT_SCOPES, Scope.WORKER]);
    const reg = await a.request<{ nodeId: string }>('POST', '/api/worker/nodes', { handlers: ['greet'], capacity: 2 });
    expect(reg.status).toBe(201);
    const nodes = await a.request<{ items: Array<{ nodeId: string; appId: string | null }> }>('GET', '/api/nodes');
    expect(nodes.body.items).toEqual([expect.objectContaining({ nodeId: reg.body.nodeId, appId: a.appId })]);
    const sent = await a.request<{ requestId: string }>('POST', '/api/tasks', { handler: 'greet' });
    expect(sent.status).toBe(202);
    const claimed = await a.request<{ items: Attempt[] }>('POST', `/api/worker/nodes/${reg.body.nodeId}/claims`, {
      max: 2,
      waitMs: 5000,
    });
    expect(claimed.body.items).toHaveLength(1);
    const [att] = claimed.body.items;
    const fin = await a.request('POST', `/api/worker/nodes/${reg.body.nodeId}/attempts/${att.instanceId}/finish`, {
      fencingToken: att.fencingToken,
      outcome: 'SUCCESS',
      result: 'hi',
    });
    expect(fin.body).toEqual({ status: 'SUCCESS', final: true });
    const task = await a.request<{ status: string; result: unknown }>('GET', `/api/tasks/${sent.body.requestId}`);
    expect(task.body).toMatchObject({ status: 'SUCCESS', result: 'hi' });
  }, 60_000);
});
