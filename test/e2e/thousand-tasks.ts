import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { HttpReceiver } from '../utils/http-receiver.js';
import { statusCounts, TestNode, waitFor } from '../utils/test-node.js';

/** What one run of {@link submitAndAwait} measured. */
export interface ThousandTasksResult {
  /** Time until the last submit was answered. */
  submitMs: number;
  elapsedMs: number;
  tasksPerSecond: number;
  counts: Record<string, number>;
  requestIds: string[];
}

/**
 * Submits `n` signed `http` tasks (each pointing at the receiver, `concurrency` requests in flight),
 * waits until every instance of the namespace is SUCCESS, and returns counts and timing from the first
 * submit to the last SUCCESS seen.
 */
export async function submitAndAwait(
  client: TickwheelClient,
  api: TestNode,
  receiver: HttpReceiver,
  n: number,
  concurrency = 50,
): Promise<ThousandTasksResult> {
  const requestIds: string[] = [];
  const start = Date.now();
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const task = {
        requestId: `task-${i}`,
        handler: 'http',
        params: { method: 'POST', url: `${receiver.url}/hook`, body: { i } },
        maxAttempts: 3,
      };
      // once more on a network error (a pooled socket the server closed as idle): a resubmit is a replay, 202 too
      const res = await client.submitTask(task).catch(() => client.submitTask(task));
      if (res.status !== 202) throw new Error(`submit ${i}: ${res.status} ${JSON.stringify(res.body)}`);
      requestIds.push(res.body.requestId);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const submitMs = Date.now() - start;
  const ns = api.config.namespace;
  await waitFor(`${n} tasks SUCCESS`, async () => (await statusCounts(api.ds, ns)).SUCCESS === n, 120_000, 50).catch(
    async (err: Error) => {
      throw new Error(`${err.message}; statuses now ${JSON.stringify(await statusCounts(api.ds, ns))}`);
    },
  );
  const elapsedMs = Date.now() - start;
  return {
    submitMs,
    elapsedMs,
    tasksPerSecond: Math.round((n * 1000) / elapsedMs),
    counts: await statusCounts(api.ds, ns),
    requestIds,
  };
}
