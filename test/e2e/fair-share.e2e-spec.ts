import type { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { type LimitReceiver, startLimitReceiver } from '../utils/limit-receiver.js';
import {
  clusterEnv,
  executorsBeat,
  signedClient,
  standaloneEnv,
  startNode,
  statusCounts,
  type TestNode,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';

/** Worker slots per executor; small so that app A's backlog fills every one of them without a share. */
const CONCURRENCY = 4;
/** What the default EXECUTOR_APP_SHARE (0.875) lets one app hold of an executor: max(1, ⌊4 × 0.875⌋). */
const SHARE = 3;
const A_TASKS = 40;

/** A deployment for the case: the node serving the API and the executors (standalone: the one process). */
interface Shape {
  api: TestNode;
  nodes: TestNode[];
  executors: number;
}

const shapes: Array<[string, () => Promise<Shape>]> = [
  [
    'standalone',
    async () => {
      const node = await startNode(standaloneEnv({ EXECUTOR_CONCURRENCY: String(CONCURRENCY), LOG_LEVEL: 'error' }));
      return { api: node, nodes: [node], executors: 1 };
    },
  ],
  [
    'cluster, two executors',
    async () => {
      const ns = uniqueNamespace('e2e-fair');
      const env = (extra: Record<string, string>) =>
        clusterEnv(ns, {
          EXECUTOR_CONCURRENCY: String(CONCURRENCY),
          NODE_OFFLINE_AFTER_MS: '15000',
          LOG_LEVEL: 'error',
          ...extra,
        });
      const nodes: TestNode[] = [];
      const roles: Array<Record<string, string>> = [
        { ROLES: 'api,scheduler' },
        { ROLES: 'executor', NODE_NAME: 'fair-a' },
        { ROLES: 'executor', NODE_NAME: 'fair-b' },
      ];
      for (const role of roles) nodes.push(await startNode(env(role)));
      const api = nodes[0];
      await executorsBeat(api, 2);
      return { api, nodes, executors: 2 };
    },
  ],
];

/**
 * Fair sharing of executor slots between apps (docs/dispatch.md "Fair sharing between apps"): without a share, one
 * app's backlog of slow tasks holds every executor slot and another app's task waits behind them all. Here app A's
 * calls are held by the receiver (a handler as slow as the test wants), so without a share A's backlog would hold
 * every slot until the test lets it go; with the default share A holds 3 of each executor's 4 slots, and app B's task
 * starts within a second of its submit.
 */
describe.each(shapes)('fair sharing of executor slots between apps (%s)', (_name, start) => {
  let shape: Shape;
  let rx: LimitReceiver;
  let slowA = true;

  beforeAll(async () => {
    rx = await startLimitReceiver((path) => (path === '/a' && slowA ? { hold: true } : { status: 200, delayMs: 0 }));
    shape = await start();
  }, 60_000);

  afterAll(async () => {
    for (const node of [...(shape?.nodes ?? [])].reverse()) await node.close();
    await rx?.close();
  });

  /** The task's submit-to-start time, ms (from its `createdAt` and `startedAt`). */
  async function startDelay(client: TickwheelClient, requestId: string): Promise<number> {
    let task: Record<string, unknown> = {};
    await waitFor(
      `task ${requestId} to start`,
      async () => (task = (await client.getTask(requestId)).body).startedAt != null,
      15_000,
      20,
    );
    return Date.parse(task.startedAt as string) - Date.parse(task.createdAt as string);
  }

  it("should start another app's task within a second while one app's backlog of slow tasks waits, and still run that backlog", async () => {
    const { api, executors } = shape;
    const [a, b] = [
      await signedClient(api, uniqueNamespace('fair-a')),
      await signedClient(api, uniqueNamespace('fair-b')),
    ];
    expect((await b.submitTask({ requestId: 'b-idle', handler: 'http', params: { url: `${rx.url}/b` } })).status).toBe(
      202,
    );
    const idle = await startDelay(b, 'b-idle'); // a lone task on idle executors

    const tasks = Array.from({ length: A_TASKS }, (_, i) => ({
      requestId: `a-${i}`,
      handler: 'http',
      params: { url: `${rx.url}/a` },
    }));
    expect((await a.submitTasks(tasks)).status).toBe(202);
    await waitFor(
      "A's calls to fill its share of every executor",
      async () => rx.inFlight('/a') >= executors * SHARE,
      15_000,
      20,
    );
    expect((await b.submitTask({ requestId: 'b-1', handler: 'http', params: { url: `${rx.url}/b` } })).status).toBe(
      202,
    );
    const behindBacklog = await startDelay(b, 'b-1');
    process.stdout.write(
      `[e2e fair share, ${_name}] B's task started ${idle} ms after its submit on idle executors, ${behindBacklog} ms behind A's backlog\n`,
    );
    expect(behindBacklog).toBeLessThanOrEqual(1000);
    // A alone used its share of each executor, never more.
    expect(rx.peak('/a')).toBe(executors * SHARE);

    slowA = false;
    rx.release('/a');
    await waitFor(
      "all of A's tasks to finish",
      async () => (await statusCounts(api.ds, api.config.namespace)).SUCCESS === A_TASKS + 2,
      60_000,
      100,
    );
    expect(await statusCounts(api.ds, api.config.namespace)).toEqual({ SUCCESS: A_TASKS + 2 });
    expect(rx.of('/a')).toHaveLength(A_TASKS);
    expect(new Set(rx.of('/a').map((c) => c.instanceId)).size).toBe(A_TASKS);
    expect(rx.peak('/a')).toBe(executors * SHARE);
  }, 120_000);
});
