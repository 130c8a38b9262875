import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { signedClient, standaloneEnv, startNode, TestNode, waitFor } from '../utils/test-node.js';

interface Answer {
  requestId: string;
  status: string;
  estimatedDelay: number;
  result?: unknown;
  error?: string | null;
  replayed?: boolean;
}

/**
 * A resubmit tells the truth (issue 26 item 9; the design source: an existing requestId returns the existing
 * record): the same requestId and body answer the task as it is now, its result or error once it has ended.
 */
describe('a replayed task submit answers the task as it is now (standalone)', () => {
  let node: TestNode;
  let client: TickwheelClient;
  let n = 0;

  beforeAll(async () => {
    node = await startNode(standaloneEnv());
    client = await signedClient(node);
  }, 30_000);

  afterAll(async () => node?.close());

  const fresh = () => `resubmit-${++n}-${Date.now()}`;
  const ended = (requestId: string) =>
    waitFor(`${requestId} to end`, async () => {
      const status = String((await client.getTask(requestId)).body.status);
      return ['SUCCESS', 'FAILED', 'TIMEOUT', 'CANCELLED'].includes(status);
    });

  it('should answer SUCCESS and the result to a resubmit after the task ended, and 409 for another body', async () => {
    const body = { requestId: fresh(), handler: 'noop' };
    const first = await client.submitTask(body);
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ requestId: body.requestId, status: 'PENDING', estimatedDelay: 0 });
    await ended(body.requestId);
    const again = await client.submitTask(body);
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    const view = (await client.getTask(body.requestId)).body as unknown as Answer;
    expect(again.body).toEqual({
      requestId: body.requestId,
      status: 'SUCCESS',
      estimatedDelay: 0,
      result: view.result,
      error: null,
    });
    expect(view.result).toEqual({ ok: true });
    const other = await client.submitTask({ ...body, params: { sleepMs: 1 } });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ field: 'requestId' });
  }, 60_000);

  it("should answer a failed task's status and error, as GET shows them", async () => {
    const body = { requestId: fresh(), handler: 'noop', params: { sleepMs: 5000 }, timeoutMs: 100 };
    expect((await client.submitTask(body)).status).toBe(202);
    await ended(body.requestId);
    const again = (await client.submitTask(body)).body as unknown as Answer;
    const view = (await client.getTask(body.requestId)).body as unknown as Answer;
    expect(again.status).toBe('TIMEOUT');
    expect(again.error).toBe(view.error);
    expect(again.error).toMatch(/timed out after 100 ms/);
    expect(again.result).toBeNull();
  }, 60_000);

  it('should answer the status now, without result or error, while the task runs', async () => {
    const body = { requestId: fresh(), handler: 'noop', params: { sleepMs: 3000 } };
    expect((await client.submitTask(body)).status).toBe(202);
    await waitFor('the task to run', async () => (await client.getTask(body.requestId)).body.status === 'RUNNING');
    const again = (await client.submitTask(body)).body as unknown as Answer;
    expect(again.status).toBe('RUNNING');
    expect('result' in again || 'error' in again).toBe(false);
  }, 60_000);

  it('should answer a replayed batch item as it is now too', async () => {
    const done = { requestId: fresh(), handler: 'noop' };
    expect((await client.submitTask(done)).status).toBe(202);
    await ended(done.requestId);
    const created = { requestId: fresh(), handler: 'noop' };
    const res = await client.request<{ results: Answer[] }>('POST', '/api/tasks/batch', { tasks: [done, created] });
    expect(res.status).toBe(202);
    expect(res.body.results[0]).toEqual({
      requestId: done.requestId,
      status: 'SUCCESS',
      estimatedDelay: 0,
      result: { ok: true },
      error: null,
      replayed: true,
    });
    expect(res.body.results[1]).toEqual({
      requestId: created.requestId,
      status: 'PENDING',
      estimatedDelay: 0,
      replayed: false,
    });
  }, 60_000);
});
