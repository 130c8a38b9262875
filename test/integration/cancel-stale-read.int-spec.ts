import { CancelService } from '../../src/modules/dispatch/index.js';
import {
  JobInstance,
  JobInstanceStatus as S,
  newJobInstance,
  TriggerSource,
} from '../../src/modules/metadata/index.js';
import { clusterEnv, startNode, TestNode, uniqueNamespace } from '../utils/test-node.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import { instanceQueries, type InstanceQueries } from '../utils/metadata-db.js';

/**
 * A cancel works on the row as its caller read it (the API, a REPLACE fire); the row may have moved on since
 * (a release WAITING→PENDING, a claim DISPATCHED→RUNNING). The cancel must still end it — before, its
 * conditional write lost and the instance went on to run. Only the api role runs: nothing else moves the rows.
 */
describe('cancel of a row that moved after it was read (MariaDB)', () => {
  const ns = uniqueNamespace('int-cstale');
  let node: TestNode;
  let instances: InstanceQueries;
  let cancels: CancelService;

  beforeAll(async () => {
    node = await startNode(clusterEnv(ns, { ROLES: 'api' }));
    instances = instanceQueries(node.app);
    cancels = node.app.get(CancelService);
  }, 30_000);

  afterAll(async () => {
    await deleteNamespaceRows(node?.ds, ns);
    await node?.close();
  });

  it.each([
    [S.WAITING, S.PENDING],
    [S.PENDING, S.DISPATCHED],
    [S.DISPATCHED, S.RUNNING],
  ])('read %s, now %s: cancelled', async (read, now) => {
    const t = Date.now();
    const r = Object.assign(
      newJobInstance(
        { namespace: ns, appId: 'int', handler: 'h', fireTime: t, triggerSource: TriggerSource.API, dueAt: t },
        t,
      ),
      { status: read } as Partial<JobInstance>,
    ) as JobInstance;
    await instances.fires.insertIgnore(node.ds.manager, [r]);
    const stale = (await instances.reads.findById(r.id)) as JobInstance;
    await node.ds.query('UPDATE job_instance SET status = ? WHERE id = ?', [now, r.id]);
    expect(await cancels.cancel(stale, 'test')).toBe(true);
    expect((await instances.reads.findById(r.id))?.status).toBe(S.CANCELLED);
  });

  it('an instance that ended meanwhile is left as it ended', async () => {
    const t = Date.now();
    const r = Object.assign(
      newJobInstance(
        { namespace: ns, appId: 'int', handler: 'h', fireTime: t, triggerSource: TriggerSource.API, dueAt: t },
        t,
      ),
      { status: S.RUNNING } as Partial<JobInstance>,
    ) as JobInstance;
    await instances.fires.insertIgnore(node.ds.manager, [r]);
    const stale = (await instances.reads.findById(r.id)) as JobInstance;
    await node.ds.query('UPDATE job_instance SET status = ? WHERE id = ?', [S.SUCCESS, r.id]);
    expect(await cancels.cancel(stale, 'test')).toBe(false);
    expect((await instances.reads.findById(r.id))?.status).toBe(S.SUCCESS);
  });
});
