import type { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { type Answer, type LimitReceiver, startLimitReceiver } from './limit-receiver.js';
import {
  clusterEnv,
  executorsBeat,
  signedClient,
  standaloneEnv,
  startNode,
  type TestNode,
  uniqueNamespace,
} from './test-node.js';
import { createJob, triggerNow } from './jobs.js';

/** Statuses an instance ends in. */
export const FINAL = ['SUCCESS', 'FAILED', 'TIMEOUT', 'CANCELLED'];

/** The columns of job_instance the maxConcurrency tests read. */
export interface LimitRow {
  id: string;
  fire_time: string | number;
  status: string;
  attempt: number;
  error: string | null;
}

/** Both product shapes for `describe.each`: standalone (SQLite) and one cluster node in its own namespace. */
export function limitShapes(nsPrefix: string): Array<[string, () => Record<string, string>]> {
  return [
    ['standalone', () => standaloneEnv({ LOG_LEVEL: 'error' })],
    ['cluster', () => clusterEnv(uniqueNamespace(nsPrefix), { NODE_OFFLINE_AFTER_MS: '15000', LOG_LEVEL: 'error' })],
  ];
}

/**
 * Jobs of the `http` handler calling the limit receiver (one path per job code), and reads of their rows.
 * The getters are read at each call (the node and client are made in beforeAll).
 */
export function limitJobs(
  node: () => TestNode,
  client: () => TickwheelClient,
  rx: () => LimitReceiver,
  timeoutMs: number,
) {
  const rows = async (jobId: string) =>
    (await node().ds.query(
      'SELECT id, fire_time, status, attempt, error FROM job_instance WHERE job_id = ? ORDER BY fire_time, id',
      [jobId],
    )) as LimitRow[];
  return {
    rows,
    /** Instances of the job in one of `statuses`. */
    count: async (jobId: string, statuses: string[]) =>
      (await rows(jobId)).filter((r) => statuses.includes(r.status)).length,
    /** Creates a never-firing CRON job `code` (fired by trigger-now) with `body` on top. @returns its id. */
    async createJob(code: string, body: Record<string, unknown>): Promise<string> {
      const job = await createJob(client(), {
        code,
        handler: 'http',
        timeoutMs,
        params: { url: `${rx().url}/${code}`, timeoutMs },
        ...body,
      });
      return job.id;
    },
    /** `n` manual fires of job `code`, one at a time. */
    async trigger(code: string, n: number): Promise<void> {
      await triggerNow(client(), code, n);
    },
  };
}

/**
 * The set-up the maxConcurrency e2e suites share, for one shape: a limit receiver answering by `answer`, one node
 * started with `env()` (in the cluster shape, once its executor beats), a signed client; all closed after the
 * suite. Call it in a `describe` body; the getters are valid inside tests.
 */
export function useLimitNode(
  shape: string,
  env: () => Record<string, string>,
  answer: (path: string, attempt: number) => Answer,
) {
  let node: TestNode;
  let client: TickwheelClient;
  let rx: LimitReceiver;
  beforeAll(async () => {
    rx = await startLimitReceiver(answer);
    node = await startNode(env());
    client = await signedClient(node);
    if (shape === 'cluster') await executorsBeat(node, 1);
  }, 60_000);
  afterAll(async () => {
    await node?.close();
    await rx?.close();
  });
  return { node: () => node, client: () => client, rx: () => rx };
}
