import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import {
  clusterEnv,
  signedClient,
  standaloneEnv,
  startNode,
  TestNode,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';

type TaskView = {
  status: string;
  attempt: number;
  error?: string;
  attempts: Array<{ status: string; error?: string }>;
};

/**
 * The egress policy on a running node (docs/tenancy.md "Egress policy"): a call the policy refuses at connect time
 * (here a 307 from an allowed receiver into a refused loopback port, with the body it would re-send) fails the task
 * after its first attempt, retries left or not, and the refused address receives nothing. Both shapes.
 */
describe.each([
  ['standalone', (allow: string) => standaloneEnv({ LOG_LEVEL: 'error', EGRESS_ALLOW: allow })],
  [
    'cluster',
    (allow: string) => clusterEnv(uniqueNamespace('e2e-egress'), { LOG_LEVEL: 'error', EGRESS_ALLOW: allow }),
  ],
])('egress refused at connect time (%s)', (_shape, env) => {
  let node: TestNode;
  let client: TickwheelClient;
  let start: Server;
  let victim: Server;
  const victimHits: string[] = [];

  beforeAll(async () => {
    victim = createServer((req, res) => {
      victimHits.push(`${req.method} ${req.url}`);
      res.writeHead(200).end('stolen');
    });
    await new Promise<void>((r) => victim.listen(0, '127.0.0.1', r));
    const victimPort = (victim.address() as AddressInfo).port;
    start = createServer((req, res) => {
      req.resume();
      res.writeHead(307, { location: `http://127.0.0.1:${victimPort}/steal` }).end();
    });
    await new Promise<void>((r) => start.listen(0, '127.0.0.1', r));
    // Only the redirecting receiver's port is re-opened: the victim's is refused as loopback.
    node = await startNode(env(`*,127.0.0.1:${(start.address() as AddressInfo).port}`));
    client = await signedClient(node);
  }, 30_000);

  afterAll(async () => {
    await node?.close();
    for (const s of [start, victim]) s?.closeAllConnections();
    await Promise.all([start, victim].map((s) => s && new Promise((r) => s.close(r))));
  });

  it('should end the task FAILED after exactly one attempt, with maxAttempts 3, sending the refused address nothing', async () => {
    const url = `http://127.0.0.1:${(start.address() as AddressInfo).port}/start`;
    const res = await client.submitTask({
      requestId: 'refused-1',
      handler: 'http',
      params: { url, method: 'POST', body: { secret: 1 } },
      maxAttempts: 3,
      retryBackoffMs: 100,
    });
    expect(res.status).toBe(202);
    let task: TaskView | undefined;
    await waitFor('the task to end', async () => {
      task = (await client.getTask('refused-1')).body as TaskView;
      return ['SUCCESS', 'FAILED'].includes(task.status);
    });
    expect(task).toMatchObject({ status: 'FAILED', attempt: 1 });
    expect(task?.attempts).toHaveLength(1);
    expect(task?.error).toMatch(
      /^JobFailure: HTTP POST http:\/\/127\.0\.0\.1:\d+\/start: redirect 1 to http:\/\/127\.0\.0\.1:\d+: egress refused: 127\.0\.0\.1:\d+ is loopback \(EGRESS_ALLOW to allow it\)$/,
    );
    expect(victimHits).toEqual([]);
  });
});
