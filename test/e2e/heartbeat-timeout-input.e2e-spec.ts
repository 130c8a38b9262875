import type { TickwheelClient, TickwheelResponse } from '../../src/client/tickwheel-client.js';
import { signedClient, standaloneEnv, startNode, statusCounts, TestNode, waitFor } from '../utils/test-node.js';
import { createJob, neverFiringJob } from '../utils/jobs.js';

function expectField(res: TickwheelResponse, field: string): void {
  expect({ status: res.status, field: (res.body as { field?: string }).field }).toEqual({ status: 400, field });
}

/**
 * heartbeatTimeoutMs on tasks (single and batch), job create and PATCH (docs/long-tasks.md "Heartbeat timeout"):
 * 0 = none, else 1000 up to the task's or job's timeoutMs; a bad one is a 400 naming the field and writes nothing.
 * A job's value is copied to each fire's instance; both show it.
 */
describe('heartbeatTimeoutMs as an input (standalone)', () => {
  let node: TestNode;
  let client: TickwheelClient;

  beforeAll(async () => {
    node = await startNode(standaloneEnv());
    client = await signedClient(node);
  }, 30_000);

  afterAll(async () => {
    await node?.close();
  });

  it('should refuse a task heartbeat timeout below 1000 ms or above its timeoutMs, and write nothing', async () => {
    const before = await statusCounts(node.ds, node.config.namespace);
    const task = (extra: Record<string, unknown>) => ({ requestId: `hb-${Date.now()}`, handler: 'noop', ...extra });
    expectField(await client.submitTask(task({ heartbeatTimeoutMs: 999 })), 'heartbeatTimeoutMs');
    expectField(await client.submitTask(task({ heartbeatTimeoutMs: 5000, timeoutMs: 4000 })), 'heartbeatTimeoutMs');
    expectField(await client.submitTask(task({ heartbeatTimeoutMs: 61_000 })), 'heartbeatTimeoutMs'); // default 60 s
    expectField(await client.submitTask(task({ heartbeatTimeoutMs: -1 })), 'heartbeatTimeoutMs');
    expectField(await client.submitTask(task({ heartbeatTimeoutMs: 1.5 })), 'heartbeatTimeoutMs');
    const batch = await client.submitTasks([
      { requestId: 'hb-ok', handler: 'noop', heartbeatTimeoutMs: 1000 },
      { requestId: 'hb-bad', handler: 'noop', heartbeatTimeoutMs: 2000, timeoutMs: 1000 },
    ]);
    expectField(batch, 'tasks[1].heartbeatTimeoutMs');
    expect(await statusCounts(node.ds, node.config.namespace)).toEqual(before);
  });

  it('should store and show a valid task heartbeat timeout (0 and the timeoutMs itself included)', async () => {
    for (const [requestId, hb] of [
      ['hb-zero', 0],
      ['hb-cap', 4000],
    ] as const) {
      expect(
        (await client.submitTask({ requestId, handler: 'noop', heartbeatTimeoutMs: hb, timeoutMs: 4000 })).status,
      ).toBe(202);
      const view = (await client.getTask(requestId)).body as unknown as { heartbeatTimeoutMs: number };
      expect(view.heartbeatTimeoutMs).toBe(hb);
    }
  });

  it("should check a job's heartbeat timeout on create and PATCH, and copy it to each fire", async () => {
    expectField(
      await client.request('POST', '/api/jobs', neverFiringJob('hb-bad', 'noop', { heartbeatTimeoutMs: 500 })),
      'heartbeatTimeoutMs',
    );
    expect((await client.request('GET', '/api/jobs/hb-bad')).status).toBe(404);
    const created = await createJob(client, {
      code: 'hb-job',
      handler: 'noop',
      heartbeatTimeoutMs: 2000,
      timeoutMs: 5000,
    });
    expect(created.heartbeatTimeoutMs).toBe(2000);
    // a timeoutMs below the kept heartbeat timeout breaks the rule too: named is the heartbeat timeout
    expectField(await client.request('PATCH', '/api/jobs/hb-job', { timeoutMs: 1500 }), 'heartbeatTimeoutMs');
    expectField(await client.request('PATCH', '/api/jobs/hb-job', { heartbeatTimeoutMs: 6000 }), 'heartbeatTimeoutMs');
    const patched = await client.request<{ heartbeatTimeoutMs: number }>('PATCH', '/api/jobs/hb-job', {
      heartbeatTimeoutMs: 3000,
    });
    expect(patched.status).toBe(200);
    expect(patched.body.heartbeatTimeoutMs).toBe(3000);
    const fired = await client.request<{ instanceId: string }>('POST', '/api/jobs/hb-job/trigger', {});
    expect(fired.status).toBe(202);
    const path = `/api/jobs/hb-job/instances/${fired.body.instanceId}`;
    await waitFor(
      'the fire to succeed',
      async () => (await client.request<{ status: string }>('GET', path)).body.status === 'SUCCESS',
    );
    const instance = await client.request<{ heartbeatTimeoutMs: number }>('GET', path);
    expect(instance.body.heartbeatTimeoutMs).toBe(3000);
  });
});
