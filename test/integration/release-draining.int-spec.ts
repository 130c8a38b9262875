import { COORDINATION, type CoordinationPort, type NodeAdvert } from '../../src/modules/coordination/index.js';
import { DispatchService, NodeRegistryService } from '../../src/modules/dispatch/index.js';
import {
  JobInstance,
  JobInstanceStatus as S,
  newJobInstance,
  TriggerSource,
} from '../../src/modules/metadata/index.js';
import { clusterEnv, startNode, TestNode, uniqueNamespace } from '../utils/test-node.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import { instanceQueries } from '../utils/metadata-db.js';

/**
 * The release of a staged fire (docs/trigger.md staging) routes it again when its node is draining (SIGTERM:
 * it still beats, advertising no handler, label `draining`), instead of pushing it onto a list the node
 * only hands back — or, after its last hand-back, leaves stranded until it counts as offline.
 */
describe('release of staged fires to a draining node (MariaDB + Redis)', () => {
  const ns = uniqueNamespace('int-drain');
  let api: TestNode;
  let coordination: CoordinationPort;

  beforeAll(async () => {
    // The fake nodes beat once, by hand. With the test default (3 s) they count as offline 3 s later: a loaded
    // machine that took that long between the beats and the release (or the checks after it) found no serving
    // node, or had the leader's offline watch reap both and route the fire again. Offline detection is not
    // what this tests.
    api = await startNode(
      clusterEnv(ns, { ROLES: 'api,scheduler', RECONCILE_INTERVAL_MS: '600000', NODE_OFFLINE_AFTER_MS: '600000' }),
    );
    coordination = api.app.get<CoordinationPort>(COORDINATION);
  }, 30_000);

  afterAll(async () => {
    await deleteNamespaceRows(api.ds, ns);
    await api?.close();
  });

  const advert = (draining: boolean): NodeAdvert => ({
    handlers: draining ? [] : ['h'],
    capacity: 4,
    active: 0,
    labels: draining ? { draining: 'true' } : ({} as Record<string, string>),
    host: 'x',
    startedAt: 1,
  });

  it('should take a fire staged to a draining node back and route it to a serving one', async () => {
    const now = Date.now();
    await coordination.heartbeat('drainer-20260101-1', advert(true), now);
    await coordination.heartbeat('server-20260101-1', advert(false), now);
    // The scheduler's own loops may have cached an empty registry view (REGISTRY_VIEW_MS) just before these
    // first beats: a loaded CI machine saw the release find no serving node. Read the registry afresh.
    api.app.get(NodeRegistryService).invalidate();
    const row = Object.assign(
      newJobInstance(
        { namespace: ns, appId: 'int', handler: 'h', fireTime: now, triggerSource: TriggerSource.SCHEDULE, dueAt: now },
        now,
      ),
      { status: S.DISPATCHED, nodeId: 'drainer-20260101-1', dispatchedAt: now },
    );
    await instanceQueries(api.app).fires.insertIgnore(api.ds.manager, [row]);
    await api.app
      .get(DispatchService)
      .deliver([{ id: row.id, appId: row.appId, at: now, priority: 3, nodeId: row.nodeId }]);
    const after = (await instanceQueries(api.app).reads.findById(row.id)) as JobInstance;
    expect([after.status, after.nodeId]).toEqual([S.DISPATCHED, 'server-20260101-1']);
    expect((await coordination.queuedIds('drainer-20260101-1')).size).toBe(0);
    expect([...(await coordination.queuedIds('server-20260101-1'))]).toEqual([row.id]);
  });
});
