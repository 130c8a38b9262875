import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { HttpReceiver } from '../utils/http-receiver.js';
import { startStandaloneTaskShape, TaskShape } from '../utils/task-shapes.js';
import { DEFAULT_SCOPES, Scope } from '../../src/modules/metadata/index.js';
import { signedClient, TestNode } from '../utils/test-node.js';
import { submitAndAwait } from './thousand-tasks.js';
import { createJob } from '../utils/jobs.js';

const N = 1000;

describe('standalone shape (SQLite + in-process coordination), all roles in one process', () => {
  let shape: TaskShape;
  let node: TestNode;
  let receiver: HttpReceiver;
  let client: TickwheelClient;

  beforeAll(async () => {
    shape = await startStandaloneTaskShape();
    ({ api: node, receiver, client } = shape);
  });

  afterAll(async () => shape?.close());

  it(`should run ${N} signed http tasks to SUCCESS exactly once each`, async () => {
    const r = await submitAndAwait(client, node, receiver, N);
    process.stdout.write(
      `[e2e standalone] ${N} tasks: ${r.elapsedMs} ms end to end (all submitted after ${r.submitMs} ms), ${r.tasksPerSecond} tasks/s\n`,
    );
    expect(r.counts).toEqual({ SUCCESS: N });
    expect(receiver.seen.size).toBe(N);
    for (const id of r.requestIds) expect(receiver.seen.get(id)).toBe(1);
  }, 180_000);

  it('should refuse a handler this process does not have, naming the field, instead of queueing it for ever', async () => {
    const res = await client.submitTask({ handler: 'no.such.handler' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'handler', code: 'VALIDATION' });
    const sheller = await signedClient(node, undefined, [...DEFAULT_SCOPES, Scope.SHELL]); // without the scope, a shell task is a 403 first
    const shell = await sheller.submitTask({ handler: 'shell', params: { argv: ['/bin/true'] } });
    expect(shell.status).toBe(400);
    expect(JSON.stringify(shell.body)).toContain('TICKWHEEL_ALLOW_SHELL');
    const job = await client.request('POST', '/api/jobs', {
      code: 'nobody',
      handler: 'no.such.handler',
      triggerType: 'FIXED_RATE',
      triggerExpr: '60000',
    });
    expect(job.status).toBe(400);
    await createJob(client, {
      code: 'nobody',
      handler: 'no.such.handler',
      triggerType: 'FIXED_RATE',
      triggerExpr: '60000',
      enabled: false,
    });
    expect((await client.request('POST', '/api/jobs/nobody/resume')).status).toBe(400);
    expect((await client.request('POST', '/api/jobs/nobody/trigger', {})).status).toBe(400);
  });
});
