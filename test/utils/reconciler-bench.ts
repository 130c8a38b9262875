import { jest } from '@jest/globals';
import { Redis } from 'ioredis';
import { COORDINATION, type CoordinationPort, RedisKeys } from '../../src/modules/coordination/index.js';
import { ReconcilerService } from '../../src/modules/dispatch/index.js';
import {
  JobInstance,
  JobInstanceStatus as S,
  newJobInstance,
  TriggerSource,
} from '../../src/modules/metadata/index.js';
import { instanceQueries, type InstanceQueries } from './metadata-db.js';
import { deleteNamespaceRows } from './namespace-rows.js';
import { clusterEnv, REDIS_URL, startNode, TestNode, uniqueNamespace } from './test-node.js';

/** Ready items of the rows' app ('int') for a push, ranked in their order. */
export const items = (ids: string[]) => ids.map((id, rank) => ({ id, appId: 'int', rank }));
/** How often `id` is in `list`. */
export const occurrences = (list: string[], id: string) => list.filter((x) => x === id).length;

/**
 * The reconciler suites' set-up on the real MariaDB and Redis (it registers their beforeAll, afterEach and afterAll):
 * a node of the api role only, so no leader loop or executor touches the rows (the test drives the passes and plays
 * the executor), rows on fake nodes `<ns>-n1` and `<ns>-n2`, and a pass with the fake nodes beating first.
 */
export class ReconcilerBench {
  readonly ns: string;
  readonly keys: RedisKeys;
  /**
   * Dispatched well over one pass ago. One pass is 10 minutes here: rows dispatched "now" stay younger than one
   * pass however slowly a loaded machine runs the test.
   */
  readonly OLD = Date.now() - 3_600_000;
  node!: TestNode;
  redis!: Redis;
  sut!: ReconcilerService;
  coordination!: CoordinationPort;
  instances!: InstanceQueries;

  constructor(prefix: string) {
    this.ns = uniqueNamespace(prefix);
    this.keys = new RedisKeys(this.ns);
    beforeAll(async () => {
      const env = { ROLES: 'api', NODE_OFFLINE_AFTER_MS: '600000', RECONCILE_INTERVAL_MS: '600000' };
      this.node = await startNode(clusterEnv(this.ns, env));
      this.redis = new Redis(REDIS_URL);
      this.sut = this.node.app.get(ReconcilerService);
      this.coordination = this.node.app.get<CoordinationPort>(COORDINATION);
      this.instances = instanceQueries(this.node.app);
    });
    afterEach(async () => {
      jest.restoreAllMocks();
      await deleteNamespaceRows(this.node.ds, this.ns);
      for (const n of ['n1', 'n2']) await this.coordination.drainNode(`${this.ns}-${n}`);
    });
    afterAll(async () => {
      for (const n of ['n1', 'n2']) await this.coordination?.removeNode(`${this.ns}-${n}`);
      this.redis?.disconnect();
      await this.node?.close();
    });
  }

  /** `count` rows on `nodeId`, dispatched at `at`, DISPATCHED unless `patch` says otherwise. @returns their ids. */
  readonly dispatched = async (
    nodeId: string,
    count: number,
    at = this.OLD,
    patch: Partial<JobInstance> = {},
  ): Promise<string[]> => {
    const rows = Array.from({ length: count }, (_, i) =>
      Object.assign(
        newJobInstance(
          {
            namespace: this.ns,
            appId: 'int',
            handler: 'h',
            fireTime: at + i,
            triggerSource: TriggerSource.API,
            dueAt: at,
          },
          at,
        ),
        { status: S.DISPATCHED, nodeId, dispatchedAt: at, ...patch },
      ),
    );
    await this.instances.fires.insertIgnore(this.node.ds.manager, rows);
    return rows.map((r) => r.id);
  };

  /** Fake node `nodeId` beats now, serving handler 'h' with `capacity` slots. */
  readonly beat = async (nodeId: string, capacity = 1): Promise<void> => {
    const now = Date.now();
    await this.coordination.heartbeat(
      nodeId,
      { handlers: ['h'], capacity, active: 0, labels: {}, host: 'x', startedAt: now },
      now,
    );
  };

  /** One leader pass, with the fake nodes beating first. */
  readonly pass = async (...nodes: string[]): Promise<void> => {
    for (const n of nodes) await this.beat(n);
    await this.sut.reconcileOnce();
  };

  /** The node's ready ids of the rows' app ('int'), lowest rank first. */
  readonly ready = (nodeId: string) => this.redis.zrange(this.keys.readyRank(nodeId, 'int'), 0, -1);
}
