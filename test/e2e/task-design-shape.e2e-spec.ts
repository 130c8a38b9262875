import { Injectable, Module } from '@nestjs/common';
import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { JobContext, JobHandler, JobHandlerImpl } from '../../src/modules/execution/index.js';
import { signedClient, standaloneEnv, startNode, TestNode, waitFor } from '../utils/test-node.js';

/** The design source's example handler: answers the month it was given. */
@Injectable()
@JobHandler('data_sync_report')
class SyncReportHandler implements JobHandlerImpl {
  execute(ctx: JobContext): Promise<unknown> {
    return Promise.resolve({ synced: (ctx.params as { month?: string }).month ?? null });
  }
}

@Module({ providers: [SyncReportHandler] })
class SyncModule {}

interface View {
  handler: string;
  taskName: string | null;
  status: string;
  result: unknown;
  dueAt: string;
  createdAt: string;
}

/**
 * The design source's submit shape on POST /api/tasks (issue 26 item 1): taskCode → handler, executeParams →
 * params, triggerType delay/immediate with delay in ms, taskName kept and shown; one shape per body.
 */
describe("POST /api/tasks in the design source's shape (standalone)", () => {
  let node: TestNode;
  let client: TickwheelClient;
  let n = 0;

  beforeAll(async () => {
    node = await startNode(standaloneEnv(), { imports: [SyncModule] });
    client = await signedClient(node);
  }, 30_000);

  afterAll(async () => node?.close());

  const fresh = () => `shape-${++n}-${Date.now()}`;
  const submit = (body: Record<string, unknown>) => client.request('POST', '/api/tasks', body);
  const view = async (id: string) => (await client.getTask(id)).body as unknown as View;

  it("should accept the design source's example (delay) and store and show it in the canonical shape", async () => {
    const requestId = fresh();
    const res = await submit({
      requestId,
      taskCode: 'data_sync_report',
      taskName: '月度数据同步',
      triggerType: 'delay',
      delay: 60_000,
      executeParams: { month: '2026-11' },
      callbackUrl: 'https://hooks.example.com/tickwheel',
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ requestId, status: 'PENDING', estimatedDelay: 60_000 });
    const v = await view(requestId);
    expect(v).toMatchObject({ handler: 'data_sync_report', taskName: '月度数据同步', status: 'PENDING' });
    expect(Date.parse(v.dueAt) - Date.parse(v.createdAt)).toBe(60_000);
    const [row] = (await node.ds.query(
      'SELECT handler, params, task_name, callback_url FROM job_instance WHERE request_id = ?',
      [requestId],
    )) as Array<{ handler: string; params: string; task_name: string; callback_url: string }>;
    expect(row).toEqual({
      handler: 'data_sync_report',
      params: JSON.stringify({ month: '2026-11' }),
      task_name: '月度数据同步',
      callback_url: 'https://hooks.example.com/tickwheel',
    });
    const list = (await client.request<{ items: View[] }>('GET', '/api/tasks?handler=data_sync_report')).body;
    expect(list.items.find((t) => t.taskName === '月度数据同步')).toBeDefined();
  });

  it("should run an 'immediate' one with its executeParams, and replay it when resent in the canonical shape", async () => {
    const requestId = fresh();
    const body = { requestId, taskCode: 'data_sync_report', triggerType: 'immediate', executeParams: { month: '01' } };
    expect((await submit(body)).status).toBe(202);
    await waitFor('the task to end', async () => (await view(requestId)).status === 'SUCCESS');
    expect((await view(requestId)).result).toEqual({ synced: '01' });
    expect((await view(requestId)).taskName).toBeNull();
    const canonical = await submit({ requestId, handler: 'data_sync_report', params: { month: '01' } });
    expect(canonical.status).toBe(202);
    expect(canonical.headers.get('idempotency-replayed')).toBe('true');
    expect((await submit({ ...body, executeParams: { month: '02' } })).status).toBe(409);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a bad taskCode', { taskCode: 'no spaces' }, 'taskCode'],
    ['a taskCode no handler has here', { taskCode: 'no.such.handler' }, 'taskCode'],
    ['executeParams that are not an object', { taskCode: 'noop', executeParams: [1] }, 'executeParams'],
    ['a built-in param out of range', { taskCode: 'noop', executeParams: { sleepMs: -1 } }, 'executeParams.sleepMs'],
    ['a delay past its bound', { taskCode: 'noop', triggerType: 'delay', delay: 32 * 86_400_000 }, 'delay'],
    ['a taskName past 255 characters', { taskCode: 'noop', taskName: 'n'.repeat(256) }, 'taskName'],
    ['an unknown triggerType', { taskCode: 'noop', triggerType: 'cron' }, 'triggerType'],
    ["triggerType 'delay' without a delay", { taskCode: 'noop', triggerType: 'delay' }, 'delay'],
    ["a delay with triggerType 'immediate'", { taskCode: 'noop', triggerType: 'immediate', delay: 5 }, 'delay'],
    ['taskCode with handler', { taskCode: 'noop', handler: 'noop' }, 'taskCode'],
    ['params with taskCode', { taskCode: 'noop', params: {} }, 'params'],
    ['executeParams with handler', { handler: 'noop', executeParams: {} }, 'executeParams'],
    ['delay with delayMs', { taskCode: 'noop', delay: 5, delayMs: 5 }, 'delay'],
    ['executeParams without taskCode', { executeParams: {} }, 'taskCode'],
    ['neither handler nor taskCode', { taskName: 'x' }, 'handler'],
  ])('should refuse %s with a 400 naming the field sent, writing nothing', async (_what, body, field) => {
    const requestId = fresh();
    const res = await submit({ requestId, ...body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION', field });
    expect(String((res.body as { detail: string }).detail)).not.toMatch(/should not exist/); // the shape is known
    expect((await client.getTask(requestId)).status).toBe(404);
  });

  it("should take the design source's shape per item of a batch, naming a bad item's field as sent", async () => {
    const [a, b] = [fresh(), fresh()];
    const ok = await client.request<{ results: Array<{ requestId: string; status: string }> }>(
      'POST',
      '/api/tasks/batch',
      {
        tasks: [
          { requestId: a, handler: 'noop' },
          { requestId: b, taskCode: 'noop', taskName: 'second' },
        ],
      },
    );
    expect(ok.status).toBe(202);
    expect(ok.body.results.map((r) => r.requestId)).toEqual([a, b]);
    expect((await view(b)).taskName).toBe('second');
    const bad = await client.request('POST', '/api/tasks/batch', {
      tasks: [{ handler: 'noop' }, { taskCode: 'noop', executeParams: { sleepMs: 'x' } }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ field: 'tasks[1].executeParams.sleepMs' });
  });

  it('should take a field sent null as absent in either shape, single or batch (was a 500 and a partial batch)', async () => {
    const nulls = { requestId: null, maxAttempts: null, retryBackoffMs: null, retryBackoffKind: null };
    for (const body of [
      { handler: 'data_sync_report', ...nulls },
      { taskCode: 'data_sync_report', triggerType: null, delay: null, ...nulls },
    ]) {
      const res = await submit(body);
      expect(res.status).toBe(202);
      const { requestId } = res.body as { requestId: string };
      expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
      await waitFor('the null-field task to succeed', async () => (await view(requestId)).status === 'SUCCESS', 10_000);
    }
    const first = fresh();
    const batch = await client.request<{ results: Array<{ requestId: string; status: string }> }>(
      'POST',
      '/api/tasks/batch',
      {
        tasks: [
          { requestId: first, handler: 'data_sync_report' },
          { taskCode: 'data_sync_report', ...nulls },
        ],
      },
    );
    expect(batch.status).toBe(202);
    expect(batch.body.results.map((r) => r.status)).toEqual(['PENDING', 'PENDING']);
    const rows = (await node.ds.query(
      'SELECT request_id, max_attempts, retry_backoff_kind FROM job_instance WHERE request_id IN (?, ?)',
      batch.body.results.map((r) => r.requestId),
    )) as Array<{ request_id: string; max_attempts: number; retry_backoff_kind: string }>;
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.request_id !== '' && r.max_attempts === 1 && r.retry_backoff_kind === 'FIXED')).toBe(
      true,
    );
  });
});
