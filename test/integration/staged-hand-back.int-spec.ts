import { COORDINATION, type CoordinationPort } from '../../src/modules/coordination/index.js';
import { ReconcilerService } from '../../src/modules/dispatch/index.js';
import { ShutdownDrain } from '../../src/modules/execution/shutdown-drain.js';
import {
  JobInstance,
  JobInstanceStatus as S,
  newJobInstance,
  StagedKind,
  TriggerSource,
} from '../../src/modules/metadata/index.js';
import { instanceQueries } from '../utils/metadata-db.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import { clusterEnv, startNode, TestNode, uniqueNamespace } from '../utils/test-node.js';

/**
 * A row handed back from its node before it ran (docs/state-machine.md "Staged"): a staged fire whose id the node
 * never got was never released, so it stays staged (unrouted) and a new leader still takes it back if no release
 * comes; one its node's lists held was released, and like any other row handed back it is staged no more. Both
 * writers of that hand-back: the executor's drain on shutdown, and the reconciler's take-back from a node gone
 * offline.
 */
describe('hand-back of staged rows (MariaDB + Redis)', () => {
  const ns = uniqueNamespace('int-handback');
  let node: TestNode;
  let coordination: CoordinationPort;

  beforeAll(async () => {
    const env = { ROLES: 'executor', RECONCILE_INTERVAL_MS: '600000', NODE_OFFLINE_AFTER_MS: '600000' };
    node = await startNode(clusterEnv(ns, env));
    coordination = node.app.get<CoordinationPort>(COORDINATION);
  });

  afterAll(async () => {
    if (node) await deleteNamespaceRows(node.ds, ns);
    await node?.close();
  });

  /** A fire due in a minute, DISPATCHED to `nodeId` and staged `kind`; pushed onto its node's list when `pushed`. */
  async function onNode(nodeId: string, kind: StagedKind, pushed: boolean): Promise<string> {
    const due = Date.now() + 60_000;
    const fresh = { namespace: ns, appId: 'int', handler: 'h', fireTime: due, dueAt: due };
    const row = Object.assign(newJobInstance({ ...fresh, triggerSource: TriggerSource.SCHEDULE }, Date.now()), {
      status: S.DISPATCHED,
      staged: kind,
      nodeId,
      dispatchedAt: due,
    });
    await instanceQueries(node.app).fires.insertIgnore(node.ds.manager, [row]);
    if (pushed) await coordination.pushReady(nodeId, [{ id: row.id, appId: 'int', rank: 0 }]);
    return row.id;
  }

  const state = async (id: string) => {
    const row = (await instanceQueries(node.app).reads.findById(id)) as JobInstance;
    return [row.status, row.nodeId, row.staged];
  };

  it.each<[string, (nodeId: string) => Promise<unknown>]>([
    ['the drain of a stopping executor', (nodeId) => node.app.get(ShutdownDrain).handBackQueued(nodeId)],
    [
      'the take-back from a node gone offline',
      async (nodeId) => {
        const longAgo = Date.now() - 700_000;
        const advert = { handlers: ['h'], capacity: 1, active: 0, labels: {}, host: 'x', startedAt: longAgo };
        await coordination.heartbeat(nodeId, advert, longAgo);
        await node.app.get(ReconcilerService).reconcileOnce();
      },
    ],
  ])(
    'should keep a fire its node never got staged, and clear the others, in %s',
    async (_what, handBack) => {
      const nodeId = `${ns}-n-${Math.random().toString(16).slice(2, 8)}`;
      const unreleased = await onNode(nodeId, StagedKind.FIRE, false);
      const released = await onNode(nodeId, StagedKind.FIRE, true);
      const delayed = await onNode(nodeId, StagedKind.DELAYED, false);

      await handBack(nodeId);

      // PENDING again, due in a minute: no node serves 'h', so nothing dispatches them meanwhile.
      expect(await state(unreleased)).toEqual([S.PENDING, null, StagedKind.FIRE]);
      expect(await state(released)).toEqual([S.PENDING, null, null]);
      expect(await state(delayed)).toEqual([S.PENDING, null, null]);
    },
    30_000,
  );
});
