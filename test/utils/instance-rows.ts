import type { DataSource } from 'typeorm';
import {
  CallbackDelivery,
  CallbackState,
  JobInstance,
  JobInstanceStatus,
  newJobInstance,
  TriggerSource,
} from '../../src/modules/metadata/index.js';

const DAY = 86_400_000;

/** Who a row belongs to: its namespace and app. */
export interface RowOwner {
  ns: string;
  appId: string;
}

/**
 * Inserts an instance of `owner` as the API or the scheduler would have left it, minus the API: a task (no job)
 * created at `createdAt` (epoch ms, fired then), `patch` over it (status, times, jobId, …). A PENDING row is due a
 * day from now unless `patch` says otherwise, so no background loop of a test node picks it up. @returns the row.
 */
export async function insertInstance(
  ds: DataSource,
  owner: RowOwner,
  createdAt: number,
  patch: Partial<JobInstance> = {},
): Promise<JobInstance> {
  const fresh = {
    namespace: owner.ns,
    appId: owner.appId,
    handler: 'h',
    fireTime: createdAt,
    triggerSource: patch.jobId ? TriggerSource.SCHEDULE : TriggerSource.API,
    dueAt: Math.max(createdAt, Date.now()) + DAY,
  };
  const row = Object.assign(newJobInstance(fresh, createdAt), { status: JobInstanceStatus.SUCCESS }, patch);
  await ds.getRepository(JobInstance).save(row);
  return row;
}

/**
 * Inserts the callback delivery of `instance` in `state`, written at `createdAt` (epoch ms) to `url`; `patch` goes
 * over it. Waiting states are due a day from now, so no sender of a test node tries them. @returns the row.
 */
export async function insertDelivery(
  ds: DataSource,
  instance: Pick<JobInstance, 'id' | 'namespace' | 'appId'>,
  state: CallbackState,
  createdAt: number,
  patch: Partial<CallbackDelivery> = {},
): Promise<CallbackDelivery> {
  const row = Object.assign(new CallbackDelivery(), {
    id: `d${instance.id.slice(1)}`,
    namespace: instance.namespace,
    instanceId: instance.id,
    appId: instance.appId,
    url: 'https://hooks.example.com/cb',
    host: 'hooks.example.com:443',
    state,
    attempts: state === CallbackState.PENDING ? 0 : 1,
    nextAttemptAt: Math.max(createdAt, Date.now()) + DAY,
    claim: null,
    leaseUntil: null,
    lastStatusCode: null,
    lastError: null,
    finalAt: createdAt,
    deliveredAt: state === CallbackState.DELIVERED ? createdAt + 50 : null,
    createdAt,
    updatedAt: createdAt + 50,
    ...patch,
  });
  await ds.getRepository(CallbackDelivery).insert(row);
  return row;
}
