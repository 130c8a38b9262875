import { randomUUID } from 'node:crypto';
import { type CallbackSink, startCallbackSink } from '../utils/callback-sink.js';
import { type HttpReceiver, startReceiver } from '../utils/http-receiver.js';
import { createJob, triggerNow } from '../utils/jobs.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import {
  type AppClient,
  clusterEnv,
  signedClient,
  startNode,
  type TestNode,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';

/**
 * Every final state is called back (docs/callbacks.md), across split roles: the API
 * process is stopped before the task finishes and the delivery still arrives (the scheduler sends it);
 * SUCCESS, FAILED, TIMEOUT and CANCELLED each reach the receiver once, signed, with the instance's status; a
 * job's URL and the app's default registration are used when the task has none.
 */
describe('callbacks of every final state, roles split (cluster)', () => {
  const ns = uniqueNamespace('e2e-cb-final');
  let api: TestNode;
  let scheduler: TestNode;
  let executor: TestNode;
  let sink: CallbackSink;
  let work: HttpReceiver;
  let hold: HttpReceiver;
  let broken: HttpReceiver;
  let client: AppClient;

  const delivered = (requestId: string) => sink.received.filter((r) => r.body.requestId === requestId && r.valid);

  beforeAll(async () => {
    const env = { CALLBACK_RETRY_DELAYS_MS: '200,500', NODE_OFFLINE_AFTER_MS: '15000' };
    api = await startNode(clusterEnv(ns, { ...env, ROLES: 'api' }));
    scheduler = await startNode(clusterEnv(ns, { ...env, ROLES: 'scheduler' }));
    executor = await startNode(clusterEnv(ns, { ...env, ROLES: 'executor' }));
    sink = await startCallbackSink();
    work = await startReceiver({ delayMs: 1500 });
    hold = await startReceiver({ delayMs: 20_000 });
    broken = await startReceiver({ status: 500 });
    client = await signedClient(api, `cbf-${randomUUID().slice(0, 8)}`);
    sink.secrets.push(client.secret);
  }, 60_000);
  afterAll(async () => {
    await executor?.close();
    if (scheduler) await deleteNamespaceRows(scheduler.ds, ns, { definitions: true });
    await scheduler?.close();
    await api?.close().catch(() => undefined); // closed by the last test already
    await Promise.all([sink?.close(), work?.close(), hold?.close(), broken?.close()]);
  });

  it('should deliver SUCCESS, FAILED, TIMEOUT and CANCELLED, each once and signed', async () => {
    const cb = `${sink.url}/cb`;
    const submit = async (task: Record<string, unknown>) => {
      const res = await client.submitTask({ ...task, callbackUrl: cb });
      expect(res.status).toBe(202);
    };
    await submit({ requestId: 'ok', handler: 'http', params: { url: work.url } });
    await submit({ requestId: 'fails', handler: 'http', params: { url: broken.url }, maxAttempts: 1 });
    await submit({ requestId: 'slow', handler: 'http', params: { url: hold.url }, timeoutMs: 500 });
    await submit({ requestId: 'cancelled', handler: 'noop', delayMs: 600_000 });
    expect((await client.request('POST', '/api/tasks/cancelled/cancel')).status).toBeLessThan(300);
    for (const [id, status] of [
      ['ok', 'SUCCESS'],
      ['fails', 'FAILED'],
      ['slow', 'TIMEOUT'],
      ['cancelled', 'CANCELLED'],
    ] as const) {
      await waitFor(`${id}'s callback`, async () => delivered(id).length > 0, 30_000);
      const got = delivered(id);
      expect(got).toHaveLength(1);
      expect(got[0].body).toMatchObject({ requestId: id, status, deliveryId: got[0].deliveryId, jobCode: null });
      expect(got[0].path).toBe('/cb');
    }
  }, 90_000);

  it("should use the job's URL, then the app's default registration, for instances without their own", async () => {
    await createJob(client, { code: 'cb-job', handler: 'noop', callbackUrl: `${sink.url}/job` });
    await triggerNow(client, 'cb-job');
    await waitFor("the job instance's callback", async () => sink.received.some((r) => r.path === '/job'), 30_000);
    const fromJob = sink.received.filter((r) => r.path === '/job');
    expect(fromJob).toHaveLength(1);
    expect(fromJob[0]).toMatchObject({ valid: true, body: { jobCode: 'cb-job', status: 'SUCCESS' } });

    expect((await client.registerCallback(`${sink.url}/default`)).status).toBeLessThan(300);
    expect((await client.submitTask({ requestId: 'no-own-url', handler: 'noop' })).status).toBe(202);
    await waitFor('the default registration to be used', async () => delivered('no-own-url').length > 0, 30_000);
    expect(delivered('no-own-url')[0]).toMatchObject({ path: '/default', body: { status: 'SUCCESS' } });
  }, 60_000);

  it('should deliver the callback of a task that finishes while the API process is down', async () => {
    const res = await client.submitTask({
      requestId: 'api-down',
      handler: 'http',
      params: { url: work.url }, // held 1.5 s: the API process is gone before it ends
      callbackUrl: `${sink.url}/cb`,
    });
    expect(res.status).toBe(202);
    await api.close();
    await waitFor('the callback sent by the scheduler', async () => delivered('api-down').length > 0, 30_000);
    expect(delivered('api-down')[0].body).toMatchObject({ status: 'SUCCESS', attempts: 1 });
  }, 60_000);
});
