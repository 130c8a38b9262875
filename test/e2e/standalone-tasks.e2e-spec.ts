import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { HttpReceiver, startReceiver } from '../utils/http-receiver.js';
import { signedClient, standaloneEnv, startNode, TestNode } from '../utils/test-node.js';
import { submitAndAwait } from './thousand-tasks.js';

const N = 1000;

describe('standalone shape (SQLite + in-process coordination), all roles in one process', () => {
  let node: TestNode;
  let receiver: HttpReceiver;
  let client: TickwheelClient;

  beforeAll(async () => {
    receiver = await startReceiver();
    node = await startNode(standaloneEnv());
    client = await signedClient(node);
  });

  afterAll(async () => {
    await node?.close();
    await receiver?.close();
  });

  it(`should run ${N} signed http tasks to SUCCESS exactly once each`, async () => {
    const r = await submitAndAwait(client, node, receiver, N);
    process.stdout.write(`[e2e standalone] ${N} tasks: ${r.elapsedMs} ms end to end (all submitted after ${r.submitMs} ms), ${r.tasksPerSecond} tasks/s\n`);
    expect(r.counts).toEqual({ SUCCESS: N });
    expect(receiver.seen.size).toBe(N);
    for (const id of r.requestIds) expect(receiver.seen.get(id)).toBe(1);
  }, 180_000);
});
