import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { HttpReceiver, startReceiver } from './http-receiver.js';
import { clusterEnv, signedClient, standaloneEnv, startNode, TestNode, UNLIMITED } from './test-node.js';

/**
 * A booted deployment for task tests: an http receiver, the node serving the API, its other nodes and a
 * signed client, unlimited (the throughput tests submit a thousand tasks as fast as they can).
 */
export interface TaskShape {
  receiver: HttpReceiver;
  api: TestNode;
  /** Executor-only nodes (none standalone). */
  executors: TestNode[];
  client: TickwheelClient;
  close(): Promise<void>;
}

async function assemble(api: TestNode, executors: TestNode[], receiver: HttpReceiver): Promise<TaskShape> {
  return {
    receiver,
    api,
    executors,
    client: await signedClient(api, undefined, undefined, UNLIMITED),
    close: async () => {
      for (const n of [...executors, api]) await n.close();
      await receiver.close();
    },
  };
}

/**
 * The cluster shape in `ns` (MariaDB + Redis): an api+scheduler node and two executor nodes, exec-a and
 * exec-b. The nodes run in the jest worker, which a busy CI machine (the chaos and process tests next
 * door) can starve for seconds; with the test default of 3 s a starved node was declared offline and its
 * tasks revoked and run again, which these exactly-once tests must not see. They use the product
 * default (15 s): fault detection has tests of its own. `extra` settings go to every node.
 */
export async function startClusterTaskShape(ns: string, extra: Record<string, string> = {}): Promise<TaskShape> {
  const receiver = await startReceiver();
  const nodes: TestNode[] = [];
  try {
    const roles: Array<Record<string, string>> = [
      { ROLES: 'api,scheduler' },
      { ROLES: 'executor', NODE_NAME: 'exec-a' },
      { ROLES: 'executor', NODE_NAME: 'exec-b' },
    ];
    for (const role of roles) {
      nodes.push(await startNode(clusterEnv(ns, { NODE_OFFLINE_AFTER_MS: '15000', ...extra, ...role })));
    }
  } catch (err) {
    for (const n of nodes.reverse()) await n.close();
    await receiver.close();
    throw err;
  }
  return assemble(nodes[0], nodes.slice(1), receiver);
}

/** The standalone shape (SQLite + in-process coordination, all roles in one process) in a fresh data dir. */
export async function startStandaloneTaskShape(): Promise<TaskShape> {
  const receiver = await startReceiver();
  return assemble(await startNode(standaloneEnv()), [], receiver);
}
