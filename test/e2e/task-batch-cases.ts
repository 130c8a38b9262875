import { TaskBatchItem } from '../../src/client/tickwheel-client.js';
import { HttpReceiver } from '../utils/http-receiver.js';
import { TaskShape } from '../utils/task-shapes.js';
import { TestNode, waitFor } from '../utils/test-node.js';

type Problem = { status: number; field: string; detail: string; code: string };

/** An `http` task to the receiver; `extra` overrides or adds body fields. */
export function hookTask(
  receiver: HttpReceiver,
  requestId: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    requestId,
    handler: 'http',
    params: { method: 'POST', url: `${receiver.url}/hook`, body: { requestId } },
    ...extra,
  };
}

/** Rows stored per request id (case as stored) in the node's namespace, for the given request ids. */
async function rowCounts(node: TestNode, requestIds: string[]): Promise<Map<string, number>> {
  const rows: Array<{ request_id: string; c: string | number }> = await node.ds.query(
    `SELECT request_id, COUNT(*) AS c FROM job_instance WHERE namespace = ? AND request_id IN (${requestIds.map(() => '?').join(', ')}) GROUP BY request_id`,
    [node.config.namespace, ...requestIds],
  );
  return new Map(rows.map((r) => [r.request_id, Number(r.c)]));
}

/** What one run of {@link submitBatchAndAwait} measured. */
export interface BatchRun {
  submitMs: number;
  elapsedMs: number;
  results: TaskBatchItem[];
  requestIds: string[];
}

/**
 * Submits `n` http tasks `<prefix>-<i>` in one batch, waits until each is SUCCESS, and returns the answer
 * and the time until the answer and until the last SUCCESS.
 */
export async function submitBatchAndAwait(ctx: TaskShape, n: number, prefix: string): Promise<BatchRun> {
  const requestIds = Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
  const start = Date.now();
  const res = await ctx.client.submitTasks(requestIds.map((id) => hookTask(ctx.receiver, id, { maxAttempts: 3 })));
  const submitMs = Date.now() - start;
  if (res.status !== 202) throw new Error(`batch: ${res.status} ${JSON.stringify(res.body)}`);
  const done = async () => {
    const rows: Array<{ c: string | number }> = await ctx.api.ds.query(
      "SELECT COUNT(*) AS c FROM job_instance WHERE namespace = ? AND request_id LIKE ? AND status = 'SUCCESS'",
      [ctx.api.config.namespace, `${prefix}-%`],
    );
    return Number(rows[0].c) === n;
  };
  await waitFor(`${n} batch tasks SUCCESS`, done, 120_000, 50);
  return { submitMs, elapsedMs: Date.now() - start, results: res.body.results, requestIds };
}

/** Registers the batch idempotency and validation cases, shared by both shapes; `ctx()` is read when a case runs. */
export function batchIdempotencyCases(ctx: () => TaskShape): void {
  it('should replay an identical batch: nothing new is created and every item answers the task now with replayed:true', async () => {
    const { client, api: node, receiver } = ctx();
    const tasks = Array.from({ length: 50 }, (_, i) =>
      hookTask(receiver, `replay-${i}`, { delayMs: i % 2 === 0 ? 0 : 60_000 }),
    );
    const first = await client.submitTasks(tasks);
    expect(first.status).toBe(202);
    expect(first.body.results.every((r) => 'replayed' in r && r.replayed === false)).toBe(true);
    const again = await client.submitTasks(tasks);
    expect(again.status).toBe(202);
    // A replay answers each task as it is now (issue 26 item 9): the due ones may have run meanwhile.
    expect(again.body.results).toEqual(
      first.body.results.map((r) => expect.objectContaining({ ...r, status: expect.any(String), replayed: true })),
    );
    expect(again.body.results[1]).toMatchObject({ requestId: 'replay-1', status: 'PENDING', estimatedDelay: 60_000 });
    const counts = await rowCounts(
      node,
      tasks.map((t) => t.requestId as string),
    );
    expect([...counts.values()]).toEqual(Array(50).fill(1));
  });

  it('should answer each item of a mixed batch: new, replayed, and a 409 item for a requestId used with another body', async () => {
    const { client, api: node, receiver } = ctx();
    expect((await client.submitTask(hookTask(receiver, 'mixed-old'))).status).toBe(202);
    expect((await client.submitTask(hookTask(receiver, 'mixed-taken'))).status).toBe(202);
    const res = await client.submitTasks([
      hookTask(receiver, 'mixed-new-1'),
      hookTask(receiver, 'mixed-taken', { maxAttempts: 2 }),
      hookTask(receiver, 'mixed-old'),
      hookTask(receiver, 'mixed-new-2'),
    ]);
    expect(res.status).toBe(202);
    expect(res.body.results).toEqual([
      { requestId: 'mixed-new-1', status: 'PENDING', estimatedDelay: 0, replayed: false },
      {
        requestId: 'mixed-taken',
        error: {
          status: 409,
          title: 'conflict',
          code: 'CONFLICT',
          field: 'requestId',
          detail: "requestId 'mixed-taken' was already used with a different body",
        },
      },
      expect.objectContaining({ requestId: 'mixed-old', estimatedDelay: 0, replayed: true }),
      { requestId: 'mixed-new-2', status: 'PENDING', estimatedDelay: 0, replayed: false },
    ]);
    expect((await client.getTask('mixed-taken')).body).toMatchObject({ maxAttempts: 1 });
    const counts = await rowCounts(node, ['mixed-new-1', 'mixed-taken', 'mixed-old', 'mixed-new-2']);
    expect([...counts.values()]).toEqual([1, 1, 1, 1]);
  });

  it('should give duplicates inside one batch the same answer when identical and a 409 item when the body differs', async () => {
    const { client, api: node, receiver } = ctx();
    const res = await client.submitTasks([
      hookTask(receiver, 'twin-a'),
      hookTask(receiver, 'twin-b'),
      hookTask(receiver, 'twin-a'),
      hookTask(receiver, 'twin-b', { timeoutMs: 5000 }),
    ]);
    expect(res.status).toBe(202);
    const [a1, b1, a2, b2] = res.body.results;
    expect(a1).toEqual({ requestId: 'twin-a', status: 'PENDING', estimatedDelay: 0, replayed: false });
    expect(a2).toEqual(a1);
    expect(b1).toMatchObject({ requestId: 'twin-b', replayed: false });
    expect(b2).toMatchObject({ requestId: 'twin-b', error: { status: 409, code: 'CONFLICT' } });
    expect([...(await rowCounts(node, ['twin-a', 'twin-b'])).values()]).toEqual([1, 1]);
  });

  it('should replay across the single and the batch route (same body, same requestId)', async () => {
    const { client, receiver } = ctx();
    const single = await client.submitTask(
      hookTask(receiver, 'cross-1', { params: { url: `${receiver.url}/x`, headers: { a: '1', b: '2' } } }),
    );
    const batch = await client.submitTasks([
      hookTask(receiver, 'cross-1', { params: { headers: { b: '2', a: '1' }, url: `${receiver.url}/x` } }),
    ]);
    expect(batch.body.results).toEqual([
      expect.objectContaining({ ...single.body, status: expect.any(String), replayed: true }),
    ]);
    await client.submitTasks([hookTask(receiver, 'cross-2')]);
    const again = await client.submitTask(hookTask(receiver, 'cross-2'));
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('should create each row once when identical batches (one reversed) arrive at the same time', async () => {
    const { client, api: node, receiver } = ctx();
    const tasks = Array.from({ length: 300 }, (_, i) => hookTask(receiver, `race-${i}`));
    const answers = await Promise.all([
      client.submitTasks(tasks),
      client.submitTasks(tasks),
      client.submitTasks([...tasks].reverse()),
    ]);
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202]);
    expect(answers[2].body.results.map((r) => r.requestId)).toEqual([...tasks].reverse().map((t) => t.requestId));
    const counts = await rowCounts(
      node,
      tasks.map((t) => t.requestId as string),
    );
    expect(counts.size).toBe(300);
    expect([...counts.values()].every((c) => c === 1)).toBe(true);
    const createdBy = new Map<string, number>();
    for (const a of answers)
      for (const r of a.body.results)
        if ('replayed' in r && !r.replayed) createdBy.set(r.requestId, (createdBy.get(r.requestId) ?? 0) + 1);
    expect(createdBy.size).toBe(300);
    expect([...createdBy.values()].every((c) => c === 1)).toBe(true);
  });

  it('should refuse a malformed batch as a whole with a 400 naming the task and its field, and write nothing', async () => {
    const { client, api: node, receiver } = ctx();
    const ok = (i: number) => hookTask(receiver, `bad-${i}`);
    const cases: Array<[unknown, string]> = [
      [{ tasks: [ok(0), ok(1), ok(2), { ...ok(3), handler: 'no spaces allowed' }] }, 'tasks[3].handler'],
      [{ tasks: [ok(0), { ...ok(1), colour: 'red' }] }, 'tasks[1].colour'],
      [{ tasks: [ok(0), { ...ok(1), maxAttempts: 'three' }] }, 'tasks[1].maxAttempts'],
      [{ tasks: [ok(0), { ...ok(1), params: { blob: 'x'.repeat(70_000) } }] }, 'tasks[1].params'],
      [{ tasks: [ok(0), 7] }, 'tasks[1]'],
      [{ tasks: [] }, 'tasks'],
      [{ tasks: Array.from({ length: 1001 }, (_, i) => ok(i)) }, 'tasks'],
      [{ tasks: { 0: ok(0) } }, 'tasks'],
      [{}, 'tasks'],
    ];
    for (const [body, field] of cases) {
      const res = await client.request<Problem>('POST', '/api/tasks/batch', body);
      expect({ field: res.body.field, status: res.status, code: res.body.code }).toEqual({
        field,
        status: 400,
        code: 'VALIDATION',
      });
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
    const first = await client.request<Problem>('POST', '/api/tasks/batch', cases[0][0]);
    expect(first.body.detail).toMatch(/^tasks\[3\]: handler must be/);
    expect((await rowCounts(node, ['bad-0', 'bad-1', 'bad-2', 'bad-3'])).size).toBe(0);
    const bigSingle = await client.request<Problem>('POST', '/api/tasks', {
      ...ok(0),
      params: { blob: 'é'.repeat(33_000) },
    });
    expect({ status: bigSingle.status, field: bigSingle.body.field }).toEqual({ status: 400, field: 'params' });
    const exactly1000 = await client.submitTasks(
      Array.from({ length: 1000 }, (_, i) => hookTask(receiver, `max-${i}`, { delayMs: 3_600_000 })),
    );
    expect(exactly1000.status).toBe(202);
  });
}
