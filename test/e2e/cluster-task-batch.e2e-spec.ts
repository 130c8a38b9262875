import { startClusterTaskShape, TaskShape } from '../utils/task-shapes.js';
import { uniqueNamespace } from '../utils/test-node.js';
import { batchIdempotencyCases, submitBatchAndAwait } from './task-batch-cases.js';
import { submitAndAwait } from './thousand-tasks.js';

const N = 1000;

describe('POST /api/tasks/batch, cluster shape (MariaDB + Redis): api+scheduler node and two executor nodes', () => {
  const ns = uniqueNamespace('e2e-batch');
  let shape: TaskShape;

  beforeAll(async () => {
    shape = await startClusterTaskShape(ns);
  }, 60_000);

  afterAll(async () => shape?.close());

  // First in the file: submitAndAwait counts SUCCESS over the whole namespace.
  it(`should run ${N} tasks of one batch to SUCCESS exactly once each (timed against ${N} single submits)`, async () => {
    const { client, api, receiver } = shape;
    const singles = await submitAndAwait(client, api, receiver, N);
    const batch = await submitBatchAndAwait(shape, N, 'bulk');
    process.stdout.write(
      `[e2e cluster batch] ${N} tasks: one batch answered after ${batch.submitMs} ms, all SUCCESS after ${batch.elapsedMs} ms; ` +
        `${N} single submits (50 in flight) answered after ${singles.submitMs} ms, all SUCCESS after ${singles.elapsedMs} ms\n`,
    );
    expect(batch.results).toHaveLength(N);
    batch.results.forEach((r, i) =>
      expect(r).toEqual({ requestId: `bulk-${i}`, status: 'PENDING', estimatedDelay: 0, replayed: false }),
    );
    for (const id of batch.requestIds) expect(receiver.seen.get(id)).toBe(1);
    const attempts: Array<{ c: string }> = await api.ds.query(
      "SELECT COUNT(*) AS c FROM job_attempt a JOIN job_instance i ON i.id = a.instance_id WHERE i.namespace = ? AND i.request_id LIKE 'bulk-%'",
      [ns],
    );
    expect(Number(attempts[0].c)).toBe(N);
  }, 240_000);

  batchIdempotencyCases(() => shape);

  it('should accept a handler no live node has yet and keep its task PENDING', async () => {
    const res = await shape.client.submitTasks([{ requestId: 'later-b1', handler: 'not.deployed.yet' }]);
    expect(res.body.results).toEqual([
      { requestId: 'later-b1', status: 'PENDING', estimatedDelay: 0, replayed: false },
    ]);
    expect((await shape.client.getTask('later-b1')).body.status).toBe('PENDING');
  });
});
