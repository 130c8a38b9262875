import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { ReconcilerService } from '../../src/modules/dispatch/index.js';
import { ExecutorService } from '../../src/modules/execution/index.js';
import { InstanceTransitions, JobInstanceStatus } from '../../src/modules/metadata/index.js';
import { HttpReceiver, startReceiver } from '../utils/http-receiver.js';
import { clusterEnv, signedClient, startNode, TestNode, uniqueNamespace, waitFor } from '../utils/test-node.js';

/**
 * The leader's reconciler rebuilds what Redis lost and takes work back from nodes that vanished
 * (docs/data-model.md, docs/dispatch.md, docs/execution.md). The faults are made directly in MariaDB/Redis: a row assigned to a node that never
 * beats, a DISPATCHED row whose queue entry is gone, a RUNNING row on a dead node.
 */
describe('recovery by the reconciler (cluster shape)', () => {
  const ns = uniqueNamespace('e2e-recover');
  let api: TestNode;
  let executor: TestNode;
  let receiver: HttpReceiver;
  let client: TickwheelClient;

  const row = async (requestId: string) =>
    (
      (await api.ds.query('SELECT * FROM job_instance WHERE namespace = ? AND request_id = ?', [
        ns,
        requestId,
      ])) as Array<Record<string, unknown>>
    )[0];
  const submit = async (requestId: string, extra: Record<string, unknown> = {}) => {
    const res = await client.submitTask({
      requestId,
      handler: 'http',
      params: { url: `${receiver.url}/${requestId}` },
      ...extra,
    });
    expect(res.status).toBe(202);
  };

  beforeAll(async () => {
    receiver = await startReceiver();
    // No executor yet: submitted tasks stay PENDING until we stage the fault.
    api = await startNode(clusterEnv(ns, { ROLES: 'api,scheduler', RECONCILE_INTERVAL_MS: '60000' }));
    client = await signedClient(api);
  }, 60_000);
  afterAll(async () => {
    await executor?.close();
    await api?.close();
    await receiver?.close();
  });

  it('should route again the DISPATCHED and RUNNING rows of a node that never beats, and reject the old fencing token', async () => {
    await submit('ghost-dispatched');
    await submit('ghost-running', { maxAttempts: 2 });
    await api.ds.query(
      "UPDATE job_instance SET status = 'DISPATCHED', node_id = 'ghost-20260101-1' WHERE namespace = ? AND request_id = ?",
      [ns, 'ghost-dispatched'],
    );
    await api.ds.query(
      "UPDATE job_instance SET status = 'RUNNING', node_id = 'ghost-20260101-1', fencing_token = 1, lease_until = ? WHERE namespace = ? AND request_id = ?",
      [Date.now() + 600_000, ns, 'ghost-running'],
    );
    executor = await startNode(clusterEnv(ns, { ROLES: 'executor', NODE_NAME: 'real' }));
    await api.app.get(ReconcilerService).reconcileOnce();
    await waitFor(
      'both SUCCESS',
      async () =>
        (await row('ghost-dispatched'))?.status === 'SUCCESS' && (await row('ghost-running'))?.status === 'SUCCESS',
      30_000,
    );
    const d = await row('ghost-dispatched');
    const r = await row('ghost-running');
    expect(d.attempt).toBe(1); // it never ran: same attempt
    expect(r.attempt).toBe(2); // it may have run: a new attempt with a new fencing token
    expect(Number(r.fencing_token)).toBe(2);
    expect(String(r.node_id)).toMatch(/^real-/);
    // The ghost's late finishing write carries token 1 and must lose.
    const late = await api.app
      .get(InstanceTransitions)
      .transition(
        String(r.id),
        JobInstanceStatus.RUNNING,
        JobInstanceStatus.FAILED,
        { attempt: 1, fencingToken: 1 },
        { error: 'late write from the lost node' },
        Date.now(),
      );
    expect(late).toBe(false);
    expect((await row('ghost-running')).status).toBe('SUCCESS');
  }, 90_000);

  it('should push again a DISPATCHED row whose queue entry was lost (e.g. Redis flushed)', async () => {
    await executor.close();
    executor = undefined as unknown as TestNode;
    await submit('lost-push');
    await api.ds.query(
      "UPDATE job_instance SET status = 'DISPATCHED', node_id = NULL WHERE namespace = ? AND request_id = ?",
      [ns, 'lost-push'],
    );
    executor = await startNode(clusterEnv(ns, { ROLES: 'executor', NODE_NAME: 'again' }));
    const nodeId = executor.app.get(ExecutorService).nodeId;
    await api.ds.query(
      'UPDATE job_instance SET node_id = ?, dispatched_at = ? WHERE namespace = ? AND request_id = ?',
      [nodeId, Date.now() - 120_000, ns, 'lost-push'],
    );
    await api.app.get(ReconcilerService).reconcileOnce();
    await waitFor('SUCCESS', async () => (await row('lost-push'))?.status === 'SUCCESS', 30_000);
    expect(receiver.seen.get('lost-push')).toBe(1);
  }, 90_000);

  it('should give a RUNNING row with an expired lease to another attempt, or FAILED when none is left', async () => {
    await submit('expired-lease-last', { maxAttempts: 1 });
    await waitFor('SUCCESS first', async () => (await row('expired-lease-last'))?.status === 'SUCCESS', 30_000);
    await api.ds.query(
      "UPDATE job_instance SET status = 'RUNNING', lease_until = ?, finished_at = NULL WHERE namespace = ? AND request_id = ?",
      [Date.now() - 1, ns, 'expired-lease-last'],
    );
    await api.app.get(ReconcilerService).reconcileOnce();
    const r = await row('expired-lease-last');
    expect(r.status).toBe('FAILED');
    expect(String(r.error)).toMatch(/LEASE_LOST/);
  }, 90_000);
});
