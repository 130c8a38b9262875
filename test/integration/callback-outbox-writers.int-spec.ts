import { randomUUID } from 'node:crypto';
import { In } from 'typeorm';
import { CancelService, ReconcilerService } from '../../src/modules/dispatch/index.js';
import { QuarantineService } from '../../src/modules/dispatch/quarantine.service.js';
import {
  BackoffKind,
  CallbackDelivery,
  CallbackRegistration,
  JobDefinition,
  JobInstance,
  JobInstanceStatus as S,
  MisfirePolicy,
  newJobInstance,
  OverlapPolicy,
  RoutingStrategy,
  ScheduleState,
  TriggerSource,
  TriggerType,
} from '../../src/modules/metadata/index.js';
import { newId } from '../../src/common/index.js';
import { TriggerService } from '../../src/modules/trigger/index.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import { clusterEnv, standaloneEnv, startNode, TestNode, uniqueNamespace } from '../utils/test-node.js';
import { instanceQueries, type InstanceQueries } from '../utils/metadata-db.js';

/**
 * The outbox writes of the writers of a final state other than the finish writer (docs/callbacks.md "Outbox",
 * docs/state-machine.md): cancel, the reconciler's take-back with no attempt left, quarantine, and fires written
 * CANCELLED (SKIP misfire, SKIP overlap) each write exactly one delivery per instance they finalise, none for an
 * instance without a URL, none for a row their INSERT IGNORE did not write; a REPLACE victim gets its delivery
 * from its cancel. Fires (staged and sharded too), trigger-now and backfill copy the job's callbackUrl.
 *
 * Handler `h` is advertised by no node, so nothing runs; the MariaDB node runs the api role only (no loop moves
 * a row), the SQLite one is standalone with passes 10 minutes apart (a loop that fires a due job first writes
 * the same rows).
 */
const shapes: Array<[string, () => Record<string, string>]> = [
  ['SQLite', () => standaloneEnv({ RECONCILE_INTERVAL_MS: '600000' })],
  ['MariaDB', () => clusterEnv(uniqueNamespace('int-outbox'), { ROLES: 'api', RECONCILE_INTERVAL_MS: '600000' })],
];

describe.each(shapes)('callback outbox writers (%s)', (_shape, env) => {
  const app = `obw-${randomUUID().slice(0, 8)}`;
  const bare = `${app}-bare`; // no registration
  const JOB_URL = 'https://job.example/cb';
  const MIN = 60_000;
  let node: TestNode;
  let ns: string;
  let instances: InstanceQueries;
  let trigger: TriggerService;

  beforeAll(async () => {
    node = await startNode(env());
    ns = node.config.namespace;
    instances = instanceQueries(node.app);
    trigger = node.app.get(TriggerService);
    const now = Date.now();
    await node.ds.getRepository(CallbackRegistration).save(
      Object.assign(
        new CallbackRegistration(),
        { appId: app, handler: '', url: 'https://default.example/cb' },
        {
          createdAt: now,
          updatedAt: now,
        },
      ),
    );
  });

  afterAll(async () => {
    if (node?.config.shape === 'cluster') {
      // SQLite's file goes whole.
      await node.ds.query('DELETE FROM callback_delivery WHERE app_id IN (?, ?)', [app, bare]);
      await node.ds.query('DELETE FROM callback_registration WHERE app_id = ?', [app]);
      await deleteNamespaceRows(node.ds, ns, { definitions: true });
    }
    await node?.close();
  });

  /** An instance of `ns` (handler h, app `app`) stored with `patch`. */
  async function stored(patch: Partial<JobInstance> = {}): Promise<JobInstance> {
    const now = Date.now();
    const base = { namespace: ns, appId: app, handler: 'h', fireTime: now, triggerSource: TriggerSource.API };
    const row = Object.assign(newJobInstance({ ...base, dueAt: now + 3_600_000 }, now), patch);
    await node.ds.getRepository(JobInstance).save(row);
    return (await instances.reads.findById(row.id)) as JobInstance;
  }

  /** A CRON job firing every minute, handler h, of app `app`, with the job URL unless `patch` says otherwise. */
  async function job(patch: Partial<JobDefinition> = {}): Promise<JobDefinition> {
    const now = Date.now();
    const def = Object.assign(new JobDefinition(), {
      id: newId(),
      namespace: ns,
      appId: app,
      code: `j-${randomUUID().slice(0, 8)}`,
      description: null,
      handler: 'h',
      callbackUrl: JOB_URL,
      triggerType: TriggerType.CRON,
      triggerExpr: '* * * * *',
      timeZone: 'UTC',
      params: null,
      routingStrategy: RoutingStrategy.ROUND_ROBIN,
      routingKey: null,
      shardTotal: 1,
      shardParams: null,
      misfirePolicy: MisfirePolicy.FIRE_ONCE_NOW,
      overlapPolicy: OverlapPolicy.ALLOW,
      maxConcurrency: 0,
      timeoutMs: 60_000,
      retryMax: 0,
      retryBackoffMs: 1000,
      retryBackoffKind: BackoffKind.FIXED,
      enabled: false,
      scheduleState: ScheduleState.OK,
      scheduleError: null,
      nextFireTime: null,
      lastFireTime: null,
      createdAt: now,
      updatedAt: now,
      createdBy: null,
      updatedBy: null,
      ...patch,
    });
    await node.ds.getRepository(JobDefinition).save(def);
    return (await node.ds.getRepository(JobDefinition).findOneBy({ id: def.id })) as JobDefinition;
  }

  const deliveriesOf = async (ids: string[]) => node.ds.getRepository(CallbackDelivery).findBy({ instanceId: In(ids) });
  const urls = async (ids: string[]) => (await deliveriesOf(ids)).map((d) => d.url).sort();
  const ofJob = async (def: JobDefinition) =>
    node.ds
      .getRepository(JobInstance)
      .find({ where: { jobId: def.id }, order: { fireTime: 'ASC', shardIndex: 'ASC' } });

  it('cancel: one delivery per instance it cancels (own URL, else the registrations), none without a URL', async () => {
    const cancels = node.app.get(CancelService);
    const own = await stored({ callbackUrl: 'https://own.example/cb' });
    const byDefault = await stored();
    const none = await stored({ appId: bare });
    const running = await stored({ status: S.RUNNING, nodeId: 'n-x', fencingToken: 1, startedAt: Date.now() });
    for (const row of [own, byDefault, none, running]) expect(await cancels.cancel(row, 'test')).toBe(true);
    expect(await cancels.cancel((await instances.reads.findById(own.id)) as JobInstance, 'again')).toBe(false);
    expect(await urls([own.id])).toEqual(['https://own.example/cb']);
    expect(await urls([byDefault.id, running.id])).toEqual([
      'https://default.example/cb',
      'https://default.example/cb',
    ]);
    expect(await deliveriesOf([none.id])).toEqual([]);
  });

  it('reconciler take-back: a delivery when no attempt is left (FAILED), none when the row goes back to PENDING', async () => {
    const lost = { status: S.RUNNING, nodeId: `${ns}-gone`, fencingToken: 1, startedAt: 1, leaseUntil: 2 };
    const last = await stored({ ...lost, callbackUrl: 'https://own.example/lost' });
    const retried = await stored({ ...lost, maxAttempts: 2, callbackUrl: 'https://own.example/retried' });
    await node.app.get(ReconcilerService).reconcileOnce();
    expect((await instances.reads.findById(last.id))?.status).toBe(S.FAILED);
    expect((await instances.reads.findById(retried.id))?.status).toBe(S.PENDING);
    expect(await urls([last.id])).toEqual(['https://own.example/lost']);
    expect(await deliveriesOf([retried.id])).toEqual([]);
  });

  it('quarantine: a delivery for a corrupt row, and a stored URL with no usable host does not stop it', async () => {
    const good = await stored({ callbackUrl: 'https://own.example/corrupt' });
    const badUrl = await stored({ callbackUrl: 'not a url' });
    const longHost = await stored({ callbackUrl: `https://${'a'.repeat(400)}.example/cb` });
    const ids = [good.id, badUrl.id, longHost.id];
    await node.ds.query(`UPDATE job_instance SET params = '{"cut' WHERE id IN (?, ?, ?)`, ids);
    const read = await instances.reads.findByIds(ids);
    expect(await node.app.get(QuarantineService).screen(read)).toEqual([]);
    expect((await instances.reads.findByIds(ids)).map((r) => r.status)).toEqual([S.FAILED, S.FAILED, S.FAILED]);
    expect(await urls(ids)).toEqual(['https://own.example/corrupt']);
  });

  it('fires inserted CANCELLED (SKIP misfire) get one delivery each, at the job URL', async () => {
    const due = Math.floor(Date.now() / MIN) * MIN - 3 * MIN;
    const def = await job({ enabled: true, misfirePolicy: MisfirePolicy.SKIP, nextFireTime: due });
    await trigger.fireRefs([{ id: def.id, next: due }]);
    const rows = await ofJob(def);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.every((r) => r.status === S.CANCELLED && r.error?.startsWith('MISFIRE_SKIP'))).toBe(true);
    expect(await urls(rows.map((r) => r.id))).toEqual(rows.map(() => JOB_URL));
  });

  it('a staged sharded fire carries the job URL on every shard, and gets no delivery', async () => {
    const next = Math.floor(Date.now() / MIN) * MIN + 10 * MIN;
    const def = await job({ enabled: true, shardTotal: 3, nextFireTime: next });
    await trigger.fireRefs([{ id: def.id, next }]);
    const rows = await ofJob(def);
    expect(rows.map((r) => [r.fireTime, r.shardIndex, r.callbackUrl])).toEqual(
      [0, 1, 2].map((i) => [next, i, JOB_URL]),
    );
    expect(await deliveriesOf(rows.map((r) => r.id))).toEqual([]);
  });

  it('trigger-now under SKIP overlap: the CANCELLED fire gets its delivery; under REPLACE the victim does', async () => {
    const skip = await job({ overlapPolicy: OverlapPolicy.SKIP, shardTotal: 2 });
    await stored({ jobId: skip.id, jobCode: skip.code, fireTime: 1 });
    const skipped = await trigger.triggerNow(skip);
    expect(skipped.map((r) => [r.status, r.callbackUrl])).toEqual([
      [S.CANCELLED, JOB_URL],
      [S.CANCELLED, JOB_URL],
    ]);
    expect(await urls(skipped.map((r) => r.id))).toEqual([JOB_URL, JOB_URL]);

    const replace = await job({ overlapPolicy: OverlapPolicy.REPLACE });
    const victim = await stored({ jobId: replace.id, jobCode: replace.code, fireTime: 1, callbackUrl: JOB_URL });
    const [fresh] = await trigger.triggerNow(replace);
    expect([fresh.status, fresh.callbackUrl]).toEqual([S.PENDING, JOB_URL]);
    expect((await instances.reads.findById(victim.id))?.status).toBe(S.CANCELLED);
    expect(await urls([victim.id])).toEqual([JOB_URL]);
    expect(await deliveriesOf([fresh.id])).toEqual([]);
  });

  it('backfill: a fire the INSERT IGNORE did not write gets no delivery', async () => {
    const t1 = Math.floor(Date.now() / MIN) * MIN - 10 * MIN;
    const def = await job({ overlapPolicy: OverlapPolicy.SKIP });
    await stored({ jobId: def.id, jobCode: def.code, fireTime: 1 }); // unfinished: the backfilled fires are skipped
    const done = await stored({ jobId: def.id, jobCode: def.code, fireTime: t1, status: S.SUCCESS, finishedAt: t1 });
    expect(await trigger.backfill(def, t1, t1 + MIN)).toMatchObject({ created: 1, existing: 1 });
    const rows = (await ofJob(def)).filter((r) => r.fireTime >= t1);
    expect(rows.map((r) => [r.id === done.id, r.fireTime, r.status, r.callbackUrl])).toEqual([
      [true, t1, S.SUCCESS, null],
      [false, t1 + MIN, S.CANCELLED, JOB_URL],
    ]);
    const written = await deliveriesOf(rows.map((r) => r.id));
    expect(written.map((d) => [d.instanceId, d.url])).toEqual([[rows[1].id, JOB_URL]]);
  });
});
