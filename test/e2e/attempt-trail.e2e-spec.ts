import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { HttpReceiver, startReceiver } from '../utils/http-receiver.js';
import { signedClient, standaloneEnv, startNode, TestNode, waitFor } from '../utils/test-node.js';
import { createJob } from '../utils/jobs.js';

interface View {
  instanceId: string;
  status: string;
  attempts?: Array<{
    attempt: number;
    nodeId: string;
    fencingToken: number;
    status: string;
    startedAt: string;
    finishedAt: string | null;
    error: string | null;
  }>;
}

/**
 * Every attempt is traceable through the API (DESIGN: "every one traceable"): a read of one task or one
 * job instance lists its job_attempt rows — node, fencing token, status, times, error — oldest first.
 */
describe('attempt trail in the API (standalone)', () => {
  let node: TestNode;
  let client: TickwheelClient;
  let receiver: HttpReceiver;

  beforeAll(async () => {
    node = await startNode(standaloneEnv());
    client = await signedClient(node);
    receiver = await startReceiver();
  }, 30_000);

  afterAll(async () => {
    await node?.close();
    await receiver?.close();
  });

  it('should list both failed attempts of a task, each with its node, token and error', async () => {
    const submit = await client.submitTask({
      requestId: 'fails-twice',
      handler: 'http',
      params: { url: 'http://127.0.0.1:59999/closed' },
      maxAttempts: 2,
      retryBackoffMs: 100,
    });
    expect(submit.status).toBe(202);
    await waitFor(
      'the task to fail',
      async () => (await client.getTask('fails-twice')).body.status === 'FAILED',
      60_000,
      50,
    );
    const view = (await client.getTask('fails-twice')).body as unknown as View;
    expect(view.attempts?.map((a) => [a.attempt, a.status, a.fencingToken])).toEqual([
      [1, 'FAILED', 1],
      [2, 'FAILED', 2],
    ]);
    for (const a of view.attempts ?? []) {
      expect(a.nodeId).toMatch(/-\d{8}-\d+$/);
      expect(a.error).toBeTruthy();
      expect(Date.parse(a.finishedAt as string)).toBeGreaterThanOrEqual(Date.parse(a.startedAt));
    }
  }, 90_000);

  it("should show one instance of a job with its attempts, and only as that job's", async () => {
    const created = await createJob(client, { code: 'trail', handler: 'http', params: { url: `${receiver.url}/ok` } });
    const other = await createJob(client, { code: 'other', handler: 'http', params: { url: `${receiver.url}/ok` } });
    const fired = await client.request<View>('POST', `/api/jobs/${created.id}/trigger`, {});
    expect(fired.status).toBe(202);
    const path = `/api/jobs/trail/instances/${fired.body.instanceId}`;
    await waitFor(
      'the fire to succeed',
      async () => (await client.request<View>('GET', path)).body.status === 'SUCCESS',
      60_000,
      50,
    );
    const view = (await client.request<View>('GET', path)).body;
    expect(view.attempts?.map((a) => [a.attempt, a.status, a.error])).toEqual([[1, 'SUCCESS', null]]);
    expect((await client.request('GET', `/api/jobs/${other.id}/instances/${fired.body.instanceId}`)).status).toBe(404);
    expect((await client.request('GET', '/api/jobs/trail/instances/no-such-instance')).status).toBe(404);
    const list = await client.request<{ total: number; items: View[]; nextCursor: string | null }>(
      'GET',
      '/api/jobs/trail/instances',
    );
    expect(list.body).toMatchObject({ total: 1, nextCursor: null });
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0].attempts).toBeUndefined();
  }, 90_000);
});
