import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { HttpReceiver, startReceiver } from '../utils/http-receiver.js';
import { clusterEnv, signedClient, startNode, TestNode, uniqueNamespace, waitFor } from '../utils/test-node.js';
import { createJob, type JobRequest } from '../utils/jobs.js';

/** Routing strategies end to end (docs/dispatch.md): one api+scheduler node and two executor nodes in one namespace. */
interface Row {
  id: string;
  request_id: string;
  routing_key: string | null;
  node_id: string | null;
  status: string;
  fire_time: number;
  shard_index: number;
  shard_total: number;
  params: string;
}

describe('routing strategies (cluster shape, two executors)', () => {
  let receiver: HttpReceiver;
  let api: TestNode;
  let execA: TestNode;
  let execB: TestNode;
  const closed = new Set<TestNode>();
  let client: TickwheelClient;

  beforeAll(async () => {
    receiver = await startReceiver();
    const ns = uniqueNamespace('e2e-route');
    // Beats every 2 s, offline after 15 s: dispatch prefers nodes that beat within two intervals, and with the
    // test default of 0.5 s a busy CI worker (all three nodes run in it) that held back one node's beat for a
    // second had FAILOVER route a fire to the second node. These tests are about routing, not fault detection.
    const beats = { HEARTBEAT_INTERVAL_MS: '2000', NODE_OFFLINE_AFTER_MS: '15000' };
    api = await startNode(clusterEnv(ns, { ROLES: 'api,scheduler', ...beats }));
    execA = await startNode(clusterEnv(ns, { ROLES: 'executor', NODE_NAME: 'route-a', ...beats }));
    execB = await startNode(clusterEnv(ns, { ROLES: 'executor', NODE_NAME: 'route-b', ...beats }));
    client = await signedClient(api);
    await waitFor(
      'both executors registered',
      async () => {
        const res = await client.request<{ total: number; items: Array<{ nodeId: string }> }>(
          'GET',
          '/api/nodes?handler=noop',
        );
        return res.body.total === 2 && res.body.items.length === 2;
      },
      30_000,
      100,
    );
  }, 60_000);
  afterAll(async () => {
    for (const n of [execB, execA, api]) if (n && !closed.has(n)) await n.close();
    await receiver.close();
  });

  const rowsWhere = async (sql: string, args: unknown[]): Promise<Row[]> =>
    (
      (await api.ds.query(
        `SELECT id, request_id, routing_key, node_id, status, fire_time, shard_index, shard_total, params FROM job_instance WHERE ${sql}`,
        args,
      )) as Row[]
    ).map((r) => ({
      ...r,
      fire_time: Number(r.fire_time),
      shard_index: Number(r.shard_index),
      shard_total: Number(r.shard_total),
    }));

  /** An http job firing every second with `body` on top; returns its id. */
  async function everySecondJob(body: JobRequest): Promise<string> {
    const job = await createJob(client, {
      handler: 'http',
      triggerType: 'CRON',
      triggerExpr: '* * * * * *',
      ...body,
    });
    return job.id;
  }

  it('should send tasks with the same routing key to the same node (consistent hash) and spread the keys', async () => {
    const keys = Array.from({ length: 20 }, (_, i) => `tenant-${i}`);
    const tasks = keys.flatMap((k) =>
      [1, 2, 3].map((n) => ({
        requestId: `rk-${k}-${n}`,
        handler: 'http',
        routingKey: k,
        params: { url: `${receiver.url}/rk` },
      })),
    );
    const res = await client.request('POST', '/api/tasks/batch', { tasks });
    expect(res.status).toBe(202);
    const ns = api.config.namespace;
    await waitFor(
      'all keyed tasks done',
      async () =>
        (await rowsWhere("namespace = ? AND request_id LIKE 'rk-%' AND status = 'SUCCESS'", [ns])).length ===
        tasks.length,
      60_000,
      100,
    );
    const rows = await rowsWhere("namespace = ? AND request_id LIKE 'rk-%'", [ns]);
    expect(rows.length).toBe(tasks.length);
    const nodeOfKey = new Map<string, Set<string>>();
    for (const r of rows)
      nodeOfKey.set(
        r.routing_key as string,
        (nodeOfKey.get(r.routing_key as string) ?? new Set()).add(r.node_id as string),
      );
    for (const [, nodes] of nodeOfKey) expect(nodes.size).toBe(1);
    expect(new Set(rows.map((r) => r.node_id)).size).toBe(2);
  }, 120_000);

  it('should export the queue depth of each live node and the live executor count from the leader', async () => {
    await waitFor(
      'a repair pass exported the queues',
      async () => {
        const text = await (await fetch(`${api.url}/metrics`)).text();
        return (
          /tickwheel_queue_depth\{node="route-a-[^"]+",list="ready"\} \d+/.test(text) &&
          /tickwheel_queue_depth\{node="route-b-[^"]+",list="processing"\} \d+/.test(text) &&
          /tickwheel_live_executors 2/.test(text) &&
          /# TYPE tickwheel_lease_expiries_total counter/.test(text)
        );
      },
      30_000,
      200,
    );
  }, 60_000);

  it('should run every shard of a SHARDING_BROADCAST fire once, each with its shard params', async () => {
    const jobId = await everySecondJob({
      code: 'sharded',
      routingStrategy: 'SHARDING_BROADCAST',
      shardTotal: 3,
      params: { method: 'GET' },
      shardParams: [0, 1, 2].map((i) => ({ url: `${receiver.url}/shard-${i}` })),
    });
    await waitFor(
      'three whole fires done',
      async () => {
        const done = await rowsWhere("job_id = ? AND status = 'SUCCESS'", [jobId]);
        return new Set(done.map((r) => r.fire_time)).size >= 3;
      },
      60_000,
      100,
    );
    await client.request('POST', `/api/jobs/${jobId}/pause`);
    // Trigger-now answers shard 0 and lists every shard of the manual fire.
    type View = {
      instanceId: string;
      shardIndex: number;
      shardTotal: number;
      triggerSource: string;
      fireTime: string;
      shards?: View[];
    };
    const manual = await client.request<View>('POST', `/api/jobs/${jobId}/trigger`, {});
    expect(manual.status).toBe(202);
    expect([manual.body.shardIndex, manual.body.triggerSource]).toEqual([0, 'MANUAL']);
    expect(manual.body.shards?.map((v) => [v.shardIndex, v.shardTotal, v.fireTime])).toEqual(
      [0, 1, 2].map((i) => [i, 3, manual.body.fireTime]),
    );
    expect(manual.body.shards?.[0].instanceId).toBe(manual.body.instanceId);
    expect(new Set(manual.body.shards?.map((v) => v.instanceId)).size).toBe(3);
    await waitFor(
      'settled',
      async () =>
        (await rowsWhere("job_id = ? AND status NOT IN ('SUCCESS', 'FAILED', 'CANCELLED')", [jobId])).length === 0,
      30_000,
      100,
    );
    const rows = await rowsWhere('job_id = ?', [jobId]);
    expect(rows.filter((r) => manual.body.shards?.some((v) => v.instanceId === r.id)).map((r) => r.status)).toEqual([
      'SUCCESS',
      'SUCCESS',
      'SUCCESS',
    ]);
    const byFire = new Map<number, Row[]>();
    for (const r of rows) byFire.set(r.fire_time, [...(byFire.get(r.fire_time) ?? []), r]);
    const listed = await client.request<{ items: Array<{ shardIndex: number; shardTotal: number }> }>(
      'GET',
      `/api/jobs/${jobId}/instances?limit=3`,
    );
    expect(listed.body.items.map((v) => v.shardTotal)).toEqual([3, 3, 3]);
    expect(listed.body.items.every((v) => v.shardIndex >= 0 && v.shardIndex < 3)).toBe(true);
    for (const [, shards] of byFire) {
      expect(shards.map((s) => s.shard_index).sort()).toEqual([0, 1, 2]);
      for (const s of shards) {
        expect(s.shard_total).toBe(3);
        expect(s.status).toBe('SUCCESS');
        expect(JSON.parse(s.params)).toEqual({ method: 'GET', url: `${receiver.url}/shard-${s.shard_index}` });
      }
    }
  }, 150_000);

  it('should run at most maxConcurrency instances of a job at once across both nodes, and drop none', async () => {
    const slow = await startReceiver({ delayMs: 2500 });
    try {
      const jobId = await everySecondJob({
        code: 'limited',
        maxConcurrency: 2,
        params: { url: `${slow.url}/limited`, timeoutMs: 10_000 },
      });
      await waitFor(
        'some fires wait for a slot',
        async () => (await rowsWhere("job_id = ? AND status = 'WAITING'", [jobId])).length >= 2,
        30_000,
        100,
      );
      // No more fires, but not a pause: a paused job holds its waiting fires (docs/trigger.md "A bounded queue, and
      // pause"), and this case needs them released as slots free.
      const yearly = await client.request('PATCH', `/api/jobs/${jobId}`, { triggerExpr: '0 0 0 1 1 *' });
      expect(yearly.status).toBe(200);
      await waitFor(
        'every fire ran',
        async () => (await rowsWhere("job_id = ? AND status NOT IN ('SUCCESS')", [jobId])).length === 0,
        90_000,
        200,
      );
      const ran = (await api.ds.query('SELECT started_at, finished_at FROM job_instance WHERE job_id = ?', [
        jobId,
      ])) as Array<{ started_at: string; finished_at: string }>;
      const spans = ran.map((r) => [Number(r.started_at), Number(r.finished_at)]);
      const overlap = Math.max(...spans.map(([s0]) => spans.filter(([s1, f1]) => s1 <= s0 && s0 < f1).length));
      expect(spans.length).toBeGreaterThanOrEqual(4);
      expect(overlap).toBe(2);
      expect(slow.seen.size).toBe(spans.length);
    } finally {
      await slow.close();
    }
  }, 180_000);

  it('should keep a FAILOVER job on the first node in node-id order, and move it when that node stops', async () => {
    const jobId = await everySecondJob({
      code: 'failover',
      routingStrategy: 'FAILOVER',
      params: { url: `${receiver.url}/fo` },
    });
    await waitFor(
      'three fires done',
      async () => (await rowsWhere("job_id = ? AND status = 'SUCCESS'", [jobId])).length >= 3,
      60_000,
      100,
    );
    const first = new Set((await rowsWhere("job_id = ? AND status = 'SUCCESS'", [jobId])).map((r) => r.node_id));
    expect(first.size).toBe(1);
    const firstNode = [...first][0] as string;
    const [stopping, staying] = firstNode.startsWith('route-a') ? [execA, execB] : [execB, execA];
    expect(firstNode < (await nodeIdOf(staying))).toBe(true);
    await stopping.close();
    closed.add(stopping);
    const stoppedAt = Date.now();
    await waitFor(
      'fires on the other node',
      async () =>
        (await rowsWhere("job_id = ? AND status = 'SUCCESS' AND fire_time > ?", [jobId, stoppedAt + 5000])).length >= 2,
      60_000,
      200,
    );
    const later = await rowsWhere("job_id = ? AND status = 'SUCCESS' AND fire_time > ?", [jobId, stoppedAt + 5000]);
    expect(new Set(later.map((r) => r.node_id))).toEqual(new Set([await nodeIdOf(staying)]));
    await client.request('POST', `/api/jobs/${jobId}/pause`);
  }, 180_000);

  /** The node id an executor test node registered with. */
  async function nodeIdOf(node: TestNode): Promise<string> {
    const res = await client.request<{ items: Array<{ nodeId: string }> }>('GET', '/api/nodes?handler=noop');
    const prefix = node.config.nodeName;
    return (res.body.items.find((n) => n.nodeId.startsWith(`${prefix}-`)) as { nodeId: string }).nodeId;
  }
});
