import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { HttpReceiver } from '../utils/http-receiver.js';
import { startClusterTaskShape, TaskShape } from '../utils/task-shapes.js';
import { TestNode, uniqueNamespace } from '../utils/test-node.js';
import { submitAndAwait } from './thousand-tasks.js';

const N = 1000;

describe('cluster shape (MariaDB + Redis): api+scheduler node and two executor nodes', () => {
  const ns = uniqueNamespace('e2e-cluster');
  let shape: TaskShape;
  let api: TestNode;
  let receiver: HttpReceiver;
  let client: TickwheelClient;

  beforeAll(async () => {
    // Beats every 2 s (as routing.e2e-spec.ts): dispatch routes round robin over the nodes that beat within two
    // intervals (NodeRegistryService.preferFresh). With the test default of 0.5 s, a jest worker busy with the
    // 1,000 tasks below that held one executor's beat back for a second sent every task of that moment to the
    // other node, and the spread checked below is about round robin, not about heartbeat lag.
    shape = await startClusterTaskShape(ns, { HEARTBEAT_INTERVAL_MS: '2000' });
    ({ api, receiver, client } = shape);
  }, 60_000);

  afterAll(async () => shape?.close());

  it(`should run ${N} signed http tasks to SUCCESS exactly once each, spread over both executors`, async () => {
    const r = await submitAndAwait(client, api, receiver, N);
    process.stdout.write(
      `[e2e cluster] ${N} tasks: ${r.elapsedMs} ms end to end (all submitted after ${r.submitMs} ms), ${r.tasksPerSecond} tasks/s\n`,
    );
    expect(r.counts).toEqual({ SUCCESS: N });
    expect(new Set(r.requestIds).size).toBe(N);
    expect(receiver.seen.size).toBe(N);
    expect([...receiver.seen.values()].every((c) => c === 1)).toBe(true);
    for (const id of r.requestIds) expect(receiver.seen.get(id)).toBe(1);
    const perNode: Array<{ node_id: string; c: string }> = await api.ds.query(
      'SELECT node_id, COUNT(*) AS c FROM job_instance WHERE namespace = ? GROUP BY node_id',
      [ns],
    );
    expect(perNode).toHaveLength(2);
    for (const row of perNode) expect(Number(row.c)).toBeGreaterThan(N / 4);
    const attempts: Array<{ c: string }> = await api.ds.query(
      'SELECT COUNT(*) AS c FROM job_attempt a JOIN job_instance i ON i.id = a.instance_id WHERE i.namespace = ? AND a.status = ?',
      [ns, 'SUCCESS'],
    );
    expect(Number(attempts[0].c)).toBe(N);
  }, 180_000);

  it('should answer a replayed submit with the first answer and a reused requestId with another body with 409', async () => {
    const first = await client.submitTask({
      requestId: 'dup-1',
      handler: 'http',
      params: { url: `${receiver.url}/x` },
    });
    const again = await client.submitTask({
      requestId: 'dup-1',
      handler: 'http',
      params: { url: `${receiver.url}/x` },
    });
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ ...first.body, status: expect.any(String) }); // the task now (issue 26 item 9)
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('idempotency-replayed')).toBe('true'); // the keyed routes' name too
    const other = await client.submitTask({
      requestId: 'dup-1',
      handler: 'http',
      params: { url: `${receiver.url}/y` },
    });
    expect(other.status).toBe(409);
    expect(other.headers.get('content-type')).toContain('application/problem+json');
  });

  it('should accept a handler no live node has yet (executors may come later) and keep it PENDING', async () => {
    const res = await client.submitTask({ requestId: 'later-1', handler: 'not.deployed.yet' });
    expect(res.status).toBe(202);
    expect((await client.getTask('later-1')).body.status).toBe('PENDING');
  });

  it('should create one row for concurrent identical submits', async () => {
    const body = { requestId: 'race-1', handler: 'http', params: { url: `${receiver.url}/race` } };
    const answers = await Promise.all(Array.from({ length: 20 }, () => client.submitTask(body)));
    expect(answers.every((a) => a.status === 202 && a.body.requestId === 'race-1')).toBe(true);
    const rows: Array<{ c: string }> = await api.ds.query(
      'SELECT COUNT(*) AS c FROM job_instance WHERE request_id = ? AND namespace = ?',
      ['race-1', ns],
    );
    expect(Number(rows[0].c)).toBe(1);
  });
});
