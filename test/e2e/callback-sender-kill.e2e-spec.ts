import { CallbackDelivery } from '../../src/modules/metadata/index.js';
import { verifyCallback } from '../../src/common/index.js';
import { type CallbackReceiver, startCallbackReceiver } from '../utils/callback-receiver.js';
import { deleteCallbackRows, finishedWithDelivery, storeApiClient } from '../utils/callback-rows.js';
import { type MetadataDb, openMetadataDb } from '../utils/metadata-db.js';
import { type ProductProcess, startProcess } from '../utils/process-node.js';
import { clusterEnv, uniqueNamespace, waitFor } from '../utils/test-node.js';

/**
 * A sender killed (SIGKILL) while the receiver holds its request leaves the delivery claimed; after a restart the
 * claim's lease ends and the same delivery arrives, same deliveryId (docs/callbacks.md "Sender" "Claim"). Real
 * product processes (scheduler role).
 */
describe('callback sender killed mid-delivery (real processes)', () => {
  const ns = uniqueNamespace('e2e-cbkill');
  const appId = `cbkill-${ns}`.slice(0, 64);
  const secret = 'd'.repeat(64);
  let db: MetadataDb;
  let rx: CallbackReceiver;
  const procs: ProductProcess[] = [];
  const sender = () => {
    const p = startProcess(
      clusterEnv(ns, {
        ROLES: 'scheduler',
        PORT: '0',
        LOG_LEVEL: 'error',
        CALLBACK_CONNECT_TIMEOUT_MS: '500',
        CALLBACK_READ_TIMEOUT_MS: '2000',
        CALLBACK_LEASE_MS: '3000',
        CALLBACK_POLL_MS: '50',
      }),
    );
    procs.push(p);
    return p;
  };

  beforeAll(async () => {
    db = await openMetadataDb('mysql', ns);
    await deleteCallbackRows(db.ds, ns);
    rx = await startCallbackReceiver((nth) => (nth === 1 ? 'hold' : { status: 200 }));
    await storeApiClient(db.ds, appId, secret);
  }, 60_000);

  afterAll(async () => {
    for (const p of procs) await p.stop(3000);
    await rx?.close();
    await deleteCallbackRows(db.ds, ns);
    await db.ds.query('DELETE FROM api_client WHERE app_id = ?', [appId]);
    await db.close();
  });

  it('arrives after the restart with the same deliveryId, its killed try not counted', async () => {
    const id = await finishedWithDelivery(db.ds, { ns, appId, url: rx.url }, { finishedAt: 2_000, result: null });

    const first = sender();
    await waitFor('the first try held by the receiver', async () => rx.count(id) === 1, 30_000, 20);
    first.signal('SIGKILL');
    await first.exited;
    const held = await db.ds.getRepository(CallbackDelivery).findOneBy({ id });
    expect(held).toMatchObject({ state: 'PENDING', attempts: 0 });
    expect(held!.claim).not.toBeNull();

    sender();
    await waitFor(
      'delivered after the restart',
      async () => (await db.ds.getRepository(CallbackDelivery).findOneBy({ id }))?.state === 'DELIVERED',
      30_000,
    );
    expect(rx.hits.map((h) => h.deliveryId)).toEqual([id, id]);
    expect(verifyCallback(rx.hits[1].headers, rx.hits[1].body, secret)).toMatchObject({ ok: true, deliveryId: id });
    expect(await db.ds.getRepository(CallbackDelivery).findOneBy({ id })).toMatchObject({ attempts: 1, claim: null });
  }, 90_000);
});
