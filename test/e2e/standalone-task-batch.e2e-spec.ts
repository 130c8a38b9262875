import { DEFAULT_SCOPES, Scope } from '../../src/modules/metadata/index.js';
import { startStandaloneTaskShape, TaskShape } from '../utils/task-shapes.js';
import { signedClient } from '../utils/test-node.js';
import { batchIdempotencyCases, hookTask, submitBatchAndAwait } from './task-batch-cases.js';

const N = 1000;

describe('POST /api/tasks/batch, standalone shape (SQLite + in-process coordination)', () => {
  let shape: TaskShape;

  beforeAll(async () => {
    shape = await startStandaloneTaskShape();
  });

  afterAll(async () => shape?.close());

  it(`should run ${N} tasks of one batch to SUCCESS exactly once each`, async () => {
    const batch = await submitBatchAndAwait(shape, N, 'bulk');
    process.stdout.write(
      `[e2e standalone batch] ${N} tasks: one batch answered after ${batch.submitMs} ms, all SUCCESS after ${batch.elapsedMs} ms\n`,
    );
    expect(batch.results.every((r, i) => r.requestId === `bulk-${i}` && 'replayed' in r && !r.replayed)).toBe(true);
    for (const id of batch.requestIds) expect(shape.receiver.seen.get(id)).toBe(1);
  }, 180_000);

  batchIdempotencyCases(() => shape);

  it('should refuse the whole batch for a handler this process does not have, naming its first task', async () => {
    const { receiver } = shape;
    const client = await signedClient(shape.api, undefined, [...DEFAULT_SCOPES, Scope.SHELL]); // without the scope, the shell tasks are a 403 first
    const res = await client.request<{ field: string; detail: string }>('POST', '/api/tasks/batch', {
      tasks: [
        hookTask(receiver, 'h-0'),
        { requestId: 'h-1', handler: 'shell' },
        { requestId: 'h-2', handler: 'no.such' },
        { requestId: 'h-3', handler: 'shell' },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('tasks[1].handler');
    expect(res.body.detail).toContain('TICKWHEEL_ALLOW_SHELL');
    expect((await client.getTask('h-0')).status).toBe(404);
  });
});
