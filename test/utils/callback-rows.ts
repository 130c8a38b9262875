import type { DataSource } from 'typeorm';
import {
  ApiClient,
  CallbackDeliveryRepository,
  JobInstance,
  JobInstanceStatus,
  newJobInstance,
  SecretBox,
  TriggerSource,
} from '../../src/modules/metadata/index.js';
import { TEST_SECRET_KEY } from './test-node.js';

/**
 * Stores API client `appId` with `secret` sealed by TEST_SECRET_KEY, as the API would, minus the API: for tests
 * of the callback sender, which reads the secret to sign with. No scopes, no egressAllow.
 */
export async function storeApiClient(ds: DataSource, appId: string, secret: string): Promise<void> {
  const client = Object.assign(new ApiClient(), {
    appId,
    secretEnc: new SecretBox(TEST_SECRET_KEY).seal(secret),
    enabled: true,
    scopes: [],
    egressAllow: null,
    createdAt: 1,
    updatedAt: 1,
  });
  await ds.getRepository(ApiClient).save(client);
}

/** Deletes namespace `ns`'s callback deliveries and receiving hosts (the outbox tables a sender writes). */
export async function deleteCallbackRows(ds: DataSource, ns: string): Promise<void> {
  await ds.query('DELETE FROM callback_delivery WHERE namespace = ?', [ns]);
  await ds.query('DELETE FROM callback_host WHERE namespace = ?', [ns]);
}

/**
 * A SUCCESS API task of app `appId` in `ns` (started at 1,000, finished at 1,250 epoch ms) with its callback
 * delivery to `url`, final at `finalAt` (epoch ms); `patch` goes over the instance. @returns the deliveryId.
 */
export async function finishedWithDelivery(
  ds: DataSource,
  where: { ns: string; appId: string; url: string },
  patch: Partial<JobInstance> = {},
  finalAt = Date.now(),
): Promise<string> {
  const { ns, appId, url } = where;
  const fresh = { namespace: ns, appId, handler: 'h', fireTime: 1, triggerSource: TriggerSource.API, dueAt: 1 };
  const row = Object.assign(newJobInstance(fresh, 1), {
    status: JobInstanceStatus.SUCCESS,
    startedAt: 1_000,
    finishedAt: 1_250,
    result: { ok: 1 },
    callbackUrl: url,
    ...patch,
  });
  await ds.getRepository(JobInstance).save(row);
  const deliveries = new CallbackDeliveryRepository(ds);
  await ds.transaction((em) => deliveries.enqueueFinal(em, [{ ...row, finalStatus: row.status }], finalAt));
  return (await deliveries.findByInstances([row.id])).get(row.id)!.id;
}
