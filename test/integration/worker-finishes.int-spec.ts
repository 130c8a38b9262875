import { DEFAULT_SCOPES, Scope } from '../../src/modules/metadata/index.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import { appClient, expectProblem } from '../utils/tenancy.js';
import { type AppClient, clusterEnv, startNode, type TestNode, uniqueNamespace, waitFor } from '../utils/test-node.js';

const WORKER: readonly Scope[] = [...DEFAULT_SCOPES, Scope.WORKER];
type Attempt = { instanceId: string; fencingToken: number };
type Finished = { instanceId: string; fencingToken: number; code: number; status?: string; final?: boolean };

/**
 * Batched finishes of the app worker protocol (docs/workers.md "finishes") raw and signed against a live api (all
 * roles, MariaDB + Redis): each item answered as the single finish route would answer it, the app boundary, and bad
 * bodies refused whole.
 */
describe('App worker protocol: finishes (MariaDB + Redis)', () => {
  const ns = uniqueNamespace('int-wfin');
  let node: TestNode;
  let a: AppClient;
  let b: AppClient;
  const beating: NodeJS.Timeout[] = [];

  beforeAll(async () => {
    node = await startNode(clusterEnv(ns, { LEASE_MS: '8000', LEASE_RENEW_MS: '1000', LOG_LEVEL: 'error' }));
    a = await appClient(node, 'wfin-a', WORKER);
    b = await appClient(node, 'wfin-b', WORKER);
  }, 60_000);

  afterAll(async () => {
    beating.splice(0).forEach(clearInterval);
    await deleteNamespaceRows(node?.ds, ns);
    await node?.close();
  });

  const register = async (c: AppClient, capacity = 4): Promise<string> => {
    const res = await c.request<{ nodeId: string }>('POST', '/api/worker/nodes', { handlers: ['greet'], capacity });
    expect(res.status).toBe(201);
    const nodeId = res.body.nodeId;
    beating.push(
      setInterval(() => void c.request('POST', `/api/worker/nodes/${nodeId}/heartbeat`, { active: 0 }), 500),
    );
    return nodeId;
  };
  /** Submits `n` tasks of `c` and claims them all on `nodeId`. */
  const claimed = async (c: AppClient, nodeId: string, n: number, extra: Record<string, unknown> = {}) => {
    for (let i = 0; i < n; i++)
      expect((await c.request('POST', '/api/tasks', { handler: 'greet', ...extra })).status).toBe(202);
    const got: Attempt[] = [];
    await waitFor(
      `${n} attempts to claim`,
      async () => {
        const res = await c.request<{ items: Attempt[] }>('POST', `/api/worker/nodes/${nodeId}/claims`, {
          max: n - got.length,
          waitMs: 500,
        });
        got.push(...res.body.items.map(({ instanceId, fencingToken }) => ({ instanceId, fencingToken })));
        return got.length === n;
      },
      20_000,
    );
    return got;
  };
  const rows = async (ids: string[]) =>
    (await node.ds.query(
      `SELECT id, status, fencing_token AS token, result, error FROM job_instance WHERE id IN (${ids.map(() => '?')})`,
      ids,
    )) as Array<Record<string, unknown>>;
  const status = async (id: string) => (await rows([id]))[0].status;

  it("should answer each finish as the single route would (200, 409 stale, 404 another app's) and record the 200s", async () => {
    const nodeA = await register(a);
    const nodeB = await register(b);
    const [ok, failed, stale] = await claimed(a, nodeA, 3, { maxAttempts: 1 });
    const [theirs] = await claimed(b, nodeB, 1);
    const res = await a.request<{ items: Finished[] }>('POST', `/api/worker/nodes/${nodeA}/finishes`, {
      items: [
        { ...ok, outcome: 'SUCCESS', result: { n: 1 } },
        { ...failed, outcome: 'FAILED', error: 'boom' },
        { ...stale, fencingToken: stale.fencingToken - 1, outcome: 'SUCCESS' },
        { ...theirs, outcome: 'SUCCESS' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.items.map(({ instanceId, code, status: s, final }) => ({ instanceId, code, s, final }))).toEqual([
      { instanceId: ok.instanceId, code: 200, s: 'SUCCESS', final: true },
      { instanceId: failed.instanceId, code: 200, s: 'FAILED', final: true },
      { instanceId: stale.instanceId, code: 409, s: undefined, final: undefined },
      { instanceId: theirs.instanceId, code: 404, s: undefined, final: undefined },
    ]);
    expect(await status(ok.instanceId)).toBe('SUCCESS');
    expect((await rows([ok.instanceId]))[0].result).toBe('{"n":1}');
    expect(await status(failed.instanceId)).toBe('FAILED');
    expect(await status(stale.instanceId)).toBe('RUNNING');
    expect(await status(theirs.instanceId)).toBe('RUNNING');
    // B names A's node: the node rule, 404 for the whole call.
    expectProblem(
      await b.request('POST', `/api/worker/nodes/${nodeA}/finishes`, { items: [{ ...stale, outcome: 'SUCCESS' }] }),
      404,
    );
    expect(await status(stale.instanceId)).toBe('RUNNING');
    // The same finish again is stale now: 409, nothing changes.
    const again = await a.request<{ items: Finished[] }>('POST', `/api/worker/nodes/${nodeA}/finishes`, {
      items: [
        { ...stale, outcome: 'SUCCESS' },
        { ...ok, outcome: 'FAILED', error: 'late' },
      ],
    });
    expect(again.body.items.map((i) => i.code)).toEqual([200, 409]);
    expect(await status(ok.instanceId)).toBe('SUCCESS');
    expect(
      (await b.request('POST', `/api/worker/nodes/${nodeB}/finishes`, { items: [{ ...theirs, outcome: 'SUCCESS' }] }))
        .status,
    ).toBe(200);
    for (const [c, id] of [
      [a, nodeA],
      [b, nodeB],
    ] as const)
      expect((await c.request('DELETE', `/api/worker/nodes/${id}`)).status).toBe(204);
  }, 60_000);

  it('should refuse a bad batch whole (400 naming the field) and change nothing', async () => {
    const nodeA = await register(a);
    const [one, two] = await claimed(a, nodeA, 2);
    const before = await rows([one.instanceId, two.instanceId]);
    const fin = (x: Attempt) => ({ ...x, outcome: 'SUCCESS' });
    const cases: Array<[unknown, string]> = [
      [{ items: [] }, 'items'],
      [{ items: Array.from({ length: 101 }, () => fin(one)) }, 'items'],
      [{ items: [fin(one), fin(two), fin(one)] }, 'items[2].instanceId'],
      [{ items: [fin(one), { ...two, outcome: 'DONE' }] }, 'items[1].outcome'],
      [{ items: [fin(one), { ...two, instanceId: 'not an id!' }] }, 'items[1].instanceId'],
      [{ items: [fin(one), { instanceId: two.instanceId, outcome: 'SUCCESS' }] }, 'items[1].fencingToken'],
      [{ items: [fin(one), { ...fin(two), error: 'e'.repeat(4001) }] }, 'items[1].error'],
      [{ items: [{ ...fin(one), extra: 1 }] }, 'items[0].extra'],
      [{ items: [fin(one)], extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const res = await a.request('POST', `/api/worker/nodes/${nodeA}/finishes`, body);
      expect({ field, status: res.status }).toEqual({ field, status: 400 });
      expectProblem(res, 400, { field });
    }
    expect(await rows([one.instanceId, two.instanceId])).toEqual(before);
    const done = await a.request<{ items: Finished[] }>('POST', `/api/worker/nodes/${nodeA}/finishes`, {
      items: [fin(one), fin(two)],
    });
    expect(done.body.items.map((i) => i.code)).toEqual([200, 200]);
  }, 60_000);
});
