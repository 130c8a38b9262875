import { randomUUID } from 'node:crypto';
import { GreetingModule } from '../../examples/greeting/greeting.module.js';
import { DEFAULT_SCOPES, Scope } from '../../src/modules/metadata/index.js';
import { type ProductProcess, startCommand } from '../utils/process-node.js';
import { clusterEnv, signedClient, startNode, TestNode, uniqueNamespace, waitFor } from '../utils/test-node.js';

describe('examples/greeting: an application that runs its own @JobHandler as an executor', () => {
  const ns = uniqueNamespace('e2e-example');
  let api: TestNode;
  let executor: TestNode;

  beforeAll(async () => {
    // The product's 15-s offline threshold (as test/utils/task-shapes.ts explains): a CI worker starved for 3 s
    // must not get the executor declared offline and a task run again (the tests read attempt 1, token 1).
    api = await startNode(clusterEnv(ns, { ROLES: 'api,scheduler', NODE_OFFLINE_AFTER_MS: '15000' }));
    executor = await startNode(clusterEnv(ns, { ROLES: 'executor', NODE_OFFLINE_AFTER_MS: '15000' }), {
      imports: [GreetingModule],
    });
  }, 60_000);
  afterAll(async () => {
    await executor?.close();
    await api?.close();
  });

  it('should advertise the handler and run a task on it', async () => {
    const client = await signedClient(api);
    await waitFor(
      'executor to advertise greeting.hello',
      async () => {
        const nodes = await client.request<{ items: Array<{ handlers: string[] }> }>(
          'GET',
          '/api/nodes?handler=greeting.hello',
        );
        return nodes.body.items.some((n) => n.handlers.includes('greeting.hello'));
      },
      30_000,
    );
    const sub = await client.submitTask({ handler: 'greeting.hello', params: { name: 'Ada' } });
    expect(sub.status).toBe(202);
    await waitFor('SUCCESS', async () => (await client.getTask(sub.body.requestId)).body.status === 'SUCCESS', 30_000);
    const task = (await client.getTask(sub.body.requestId)).body as {
      result: { greeting: string; attempt: number; fencingToken: number };
      nodeId: string;
    };
    expect(task.result).toEqual({ greeting: 'Hello, Ada!', attempt: 1, fencingToken: 1 });
    expect(task.nodeId).toMatch(/-\d{8}-\d+$/);
  }, 90_000);

  it('should retry a failing task and end FAILED with the handler error when attempts run out', async () => {
    const client = await signedClient(api);
    const sub = await client.submitTask({
      handler: 'greeting.hello',
      params: { name: '' },
      maxAttempts: 2,
      retryBackoffMs: 100,
    });
    await waitFor('FAILED', async () => (await client.getTask(sub.body.requestId)).body.status === 'FAILED', 30_000);
    const task = (await client.getTask(sub.body.requestId)).body as {
      attempt: number;
      error: string;
      instanceId: string;
    };
    expect(task.attempt).toBe(2);
    expect(task.error).toMatch(/params.name/);
    const attempts: Array<{ attempt: number; status: string; fencing_token: string | number }> = await api.ds.query(
      'SELECT attempt, status, fencing_token FROM job_attempt WHERE instance_id = ? ORDER BY attempt',
      [task.instanceId],
    );
    expect(attempts.map((a) => [a.attempt, a.status, Number(a.fencing_token)])).toEqual([
      [1, 'FAILED', 1],
      [2, 'FAILED', 2],
    ]);
  }, 90_000);
});

describe('examples/greeting/worker.ts: the same module as an app worker', () => {
  let api: TestNode;
  let worker: ProductProcess | undefined;

  beforeAll(async () => {
    api = await startNode(clusterEnv(uniqueNamespace('e2e-example-w'), { ROLES: 'api,scheduler' }));
  }, 60_000);
  afterAll(async () => {
    await worker?.stop(10_000);
    await api?.close();
  });

  it("should register with only the app credentials, print JSON lines and run its app's task", async () => {
    const app = await signedClient(api, `greeter-${randomUUID().slice(0, 8)}`, [...DEFAULT_SCOPES, Scope.WORKER]);
    const w = startCommand([process.execPath, 'dist/examples/greeting/worker.js'], {
      PATH: process.env.PATH ?? '',
      TICKWHEEL_URL: api.url,
      TICKWHEEL_APP_ID: app.appId,
      TICKWHEEL_SECRET: app.secret,
    });
    worker = w;
    const lines = () =>
      w
        .output()
        .split('\n')
        .filter((l) => l.trim() !== '');
    await waitFor('registered', async () => lines().some((l) => l.includes('greeting worker registered')), 30_000);
    const parsed = lines().map((l) => JSON.parse(l) as Record<string, unknown>); // every line is one JSON object
    expect(parsed.find((l) => String(l.msg).startsWith('greeting worker registered'))).toMatchObject({
      url: api.url,
      appId: app.appId,
      nodeId: expect.stringMatching(/^w-/),
    });
    const sub = await app.submitTask({ handler: 'greeting.hello', params: { name: 'Ada' } });
    expect(sub.status).toBe(202);
    await waitFor('SUCCESS', async () => (await app.getTask(sub.body.requestId)).body.status === 'SUCCESS', 30_000);
    const task = (await app.getTask(sub.body.requestId)).body as { result: unknown; nodeId: string };
    expect(task.result).toEqual({ greeting: 'Hello, Ada!', attempt: 1, fencingToken: 1 });
    expect(task.nodeId).toMatch(/^w-/);
  }, 90_000);
});
