import { clockAt } from '../fakes/fake-clock.js';
import type { Clock } from '../../src/common/index.js';
import { TaskRunner } from '../../src/modules/execution/task-runner.service.js';
import {
  JobInstance,
  JobInstanceStatus as S,
  newJobInstance,
  TriggerSource,
} from '../../src/modules/metadata/index.js';
import { startLimitReceiver, type LimitReceiver } from '../utils/limit-receiver.js';
import { clusterEnv, startNode, TestNode, uniqueNamespace, waitFor } from '../utils/test-node.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import { instanceQueries } from '../utils/metadata-db.js';

/**
 * An id taken twice in one claim group is claimed and run once, and each copy ends (the executor counts its
 * worker slots and acks per copy taken: with one end for two copies, a slot stayed taken for good).
 *
 * Two claims of one id on one node in the same millisecond (the id pushed twice to the node's queue, each copy
 * taken in its own claim group; the chaos check saw it: "attempt 1 made 2 side effects", one attempt row). The
 * losing claim's check for "my own write, committed by an earlier try whose answer was lost" recognised the
 * winner's write as its own (same node, same token, same started_at) and ran the handler a second time.
 */
describe('one id claimed twice on one node (MariaDB)', () => {
  const ns = uniqueNamespace('int-claim-ms');
  let node: TestNode;
  let rx: LimitReceiver;
  let frozen: number | null = null;
  const clock: Clock = clockAt(() => frozen ?? Date.now());

  beforeAll(async () => {
    rx = await startLimitReceiver(() => ({ status: 200, delayMs: 50 }));
    node = await startNode(clusterEnv(ns, { ROLES: 'executor', LOG_LEVEL: 'error' }), { clock });
  }, 30_000);

  afterAll(async () => {
    await deleteNamespaceRows(node?.ds, ns);
    await node?.close();
    await rx?.close();
  });

  it('should run the handler once, whichever claim wins', async () => {
    const nodeId = `${ns}-n1`; // not the node's own executor: nothing else claims these rows
    const now = Date.now();
    const row = Object.assign(
      newJobInstance(
        {
          namespace: ns,
          appId: 'int',
          handler: 'http',
          fireTime: now,
          triggerSource: TriggerSource.API,
          dueAt: now,
          params: { url: `${rx.url}/once` },
        },
        now,
      ),
      { status: S.DISPATCHED, nodeId, dispatchedAt: now },
    ) as JobInstance;
    await instanceQueries(node.app).fires.insertIgnore(node.ds.manager, [row]);
    const runner = node.app.get(TaskRunner);
    const hooks = { handlerDone: () => undefined, ended: () => undefined };
    const shutdown = new AbortController().signal;

    frozen = Date.now(); // both claims stamp the same started_at
    try {
      await Promise.all([
        runner.runMany([row.id], nodeId, shutdown, hooks),
        runner.runMany([row.id], nodeId, shutdown, hooks),
      ]);
    } finally {
      frozen = null;
    }
    await waitFor(
      'the row final',
      async () => (await instanceQueries(node.app).reads.findById(row.id))?.status === S.SUCCESS,
      10_000,
      20,
    );
    expect(rx.of('/once')).toHaveLength(1);
  }, 30_000);

  it('should run an id taken twice in one claim once, and end each copy (a worker slot freed and an ack per copy)', async () => {
    const nodeId = `${ns}-n2`;
    const now = Date.now();
    const row = Object.assign(
      newJobInstance(
        {
          namespace: ns,
          appId: 'int',
          handler: 'http',
          fireTime: now,
          triggerSource: TriggerSource.API,
          dueAt: now,
          params: { url: `${rx.url}/twice-queued` },
        },
        now,
      ),
      { status: S.DISPATCHED, nodeId, dispatchedAt: now },
    ) as JobInstance;
    await instanceQueries(node.app).fires.insertIgnore(node.ds.manager, [row]);
    const done: string[] = [];
    const ended: string[] = [];
    await node.app.get(TaskRunner).runMany([row.id, row.id], nodeId, new AbortController().signal, {
      handlerDone: (id) => done.push(id),
      ended: (id) => ended.push(id),
    });
    expect(rx.of('/twice-queued')).toHaveLength(1);
    expect(done).toEqual([row.id, row.id]);
    expect(ended).toEqual([row.id, row.id]);
    expect((await instanceQueries(node.app).reads.findById(row.id))?.status).toBe(S.SUCCESS);
  }, 30_000);
});
