import { SchedulerRegistry } from '@nestjs/schedule';
import { COORDINATION, type CoordinationPort, type NodeAdvert } from '../../src/modules/coordination/index.js';
import { DispatchService, NodeRegistryService } from '../../src/modules/dispatch/index.js';
import {
  JobInstance,
  JobInstanceStatus as S,
  newJobInstance,
  StagedKind,
  TriggerSource,
} from '../../src/modules/metadata/index.js';
import { LeaderElectionService } from '../../src/modules/trigger/index.js';
import { waitFor } from '../utils/async.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import { clusterEnv, startNode, TestNode, uniqueNamespace } from '../utils/test-node.js';
import { instanceQueries } from '../utils/metadata-db.js';

/**
 * Delayed rows are staged like fires (docs/dispatch.md "Delayed tasks"): the leader takes those due within
 * TRIGGER_STAGE_LEAD_MS out of the delay queue, routes them and writes them DISPATCHED with dispatched_at = due_at,
 * and pushes their ids at the due time from its timing wheel, never before. A stand-in executor node (beats only)
 * lets the test watch its ready list; nothing claims.
 */
describe('delayed rows staged through the timing wheel (MariaDB + Redis)', () => {
  const node = 'stager-20260101-1';
  const advert: NodeAdvert = { handlers: ['h'], capacity: 4, active: 0, labels: {}, host: 'x', startedAt: 1 };
  // Repair passes and offline checks are not what this tests: they would push or take back on their own.
  const env = (ns: string) =>
    clusterEnv(ns, { ROLES: 'api,scheduler', RECONCILE_INTERVAL_MS: '600000', NODE_OFFLINE_AFTER_MS: '600000' });
  const nodes: TestNode[] = [];

  const start = async (ns: string): Promise<TestNode> => {
    const n = await startNode(env(ns));
    nodes.push(n);
    await n.app.get<CoordinationPort>(COORDINATION).heartbeat(node, advert, Date.now());
    n.app.get(NodeRegistryService).invalidate();
    await waitFor('leadership', async () => n.app.get(LeaderElectionService).isLeader, 10_000);
    return n;
  };

  afterAll(async () => {
    for (const n of nodes) {
      await deleteNamespaceRows(n.ds, n.config.namespace);
      await n.close();
    }
  });

  const row = (ns: string, dueAt: number, createdAt = Date.now()): JobInstance =>
    newJobInstance(
      { namespace: ns, appId: 'int', handler: 'h', fireTime: createdAt, triggerSource: TriggerSource.API, dueAt },
      createdAt,
    );

  /** Polls the stand-in node's ready list every 2 ms; resolves with when `id` first showed up (epoch ms). */
  const pushedAt = async (n: TestNode, id: string, withinMs: number): Promise<number> => {
    const coordination = n.app.get<CoordinationPort>(COORDINATION);
    const until = Date.now() + withinMs;
    while (Date.now() < until) {
      if ((await coordination.queuedIds(node)).has(id)) return Date.now();
      await new Promise((r) => setTimeout(r, 2));
    }
    throw new Error(`${id} was not pushed within ${withinMs} ms`);
  };

  it('should route a row due within the lead at once and push it at its due time, not before', async () => {
    const n = await start(uniqueNamespace('int-dstage'));
    const instances = instanceQueries(n.app);
    const soon = row(n.config.namespace, Date.now() + 1500);
    const later = row(n.config.namespace, Date.now() + 60_000);
    await instances.fires.insertIgnore(n.ds.manager, [soon, later]);
    await n.app.get(DispatchService).dispatchRows([soon, later]);
    await waitFor('staging', async () => (await instances.reads.findById(soon.id))?.status === S.DISPATCHED, 2000, 10);
    const staged = (await instances.reads.findById(soon.id)) as JobInstance;
    expect([staged.nodeId, staged.dispatchedAt, staged.startedAt, staged.staged]).toEqual([
      node,
      soon.dueAt,
      null,
      StagedKind.DELAYED,
    ]);
    expect((await n.app.get<CoordinationPort>(COORDINATION).queuedIds(node)).has(soon.id)).toBe(false);
    const at = await pushedAt(n, soon.id, 5000);
    expect(at).toBeGreaterThanOrEqual(soon.dueAt);
    expect(at - soon.dueAt).toBeLessThan(500);
    // Beyond the lead: left in the delay queue, PENDING.
    const far = (await instances.reads.findById(later.id)) as JobInstance;
    expect([far.status, far.nodeId]).toEqual([S.PENDING, null]);
    expect(await n.app.get<CoordinationPort>(COORDINATION).delayedDueAt(later.id)).toBe(later.dueAt);
  }, 30_000);

  it('should stage a row due sooner than one pump interval at once: its dispatch wakes the pump', async () => {
    const n = await start(uniqueNamespace('int-dwake'));
    // Only wake-ups pump from here on: a leader timer whose registry entry is gone does not run (nor set the next).
    const registry = n.app.get(SchedulerRegistry);
    expect(registry.getTimeouts()).toContain('tw-leader-pump');
    registry.deleteTimeout('tw-leader-pump');
    const instances = instanceQueries(n.app);
    const soon = row(n.config.namespace, Date.now() + 400);
    await instances.fires.insertIgnore(n.ds.manager, [soon]);
    await n.app.get(DispatchService).dispatchRows([soon]);
    const at = await pushedAt(n, soon.id, 3000);
    expect(at).toBeGreaterThanOrEqual(soon.dueAt);
    expect(at - soon.dueAt).toBeLessThan(300);
  }, 30_000);

  it("should have a new leader push the previous leader's staged delayed rows, a fire's retry too, at their due time", async () => {
    const ns = uniqueNamespace('int-dadopt');
    const created = Date.now();
    const due = created + 3000;
    // As stageMany leaves a row: DISPATCHED to its node, staged, dispatched_at = due_at, never started.
    const staged = Object.assign(row(ns, due, created - 100), {
      status: S.DISPATCHED,
      staged: StagedKind.DELAYED,
      nodeId: node,
      dispatchedAt: due,
    });
    // A fire's retry staged the same way: its fire time is recent (a staged fire of it would be pushed at once).
    const retry = Object.assign(row(ns, due, created - 100), {
      triggerSource: TriggerSource.SCHEDULE,
      fireTime: created - 200,
      attempt: 2,
      status: S.DISPATCHED,
      staged: StagedKind.DELAYED,
      nodeId: node,
      dispatchedAt: due,
    });
    const seed = await startNode(clusterEnv(ns, { ROLES: 'api' }));
    try {
      await instanceQueries(seed.app).fires.insertIgnore(seed.ds.manager, [staged, retry]);
    } finally {
      await seed.close();
    }
    const n = await start(ns);
    const [at, retryAt] = await Promise.all([pushedAt(n, staged.id, 8000), pushedAt(n, retry.id, 8000)]);
    for (const t of [at, retryAt]) {
      expect(t).toBeGreaterThanOrEqual(due);
      expect(t - due).toBeLessThan(500);
    }
  }, 30_000);
});
