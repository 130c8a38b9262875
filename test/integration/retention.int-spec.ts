import { type AppConfig } from '../../src/config/index.js';
import {
  CallbackDelivery,
  CallbackDeliveryRepository,
  CallbackState,
  IdempotencyKeyRepository,
  InstanceRetention,
  JobAttemptRepository,
  JobInstance,
  JobInstanceStatus as S,
  JobLogRepository,
  newJobInstance,
  TriggerSource,
} from '../../src/modules/metadata/index.js';
import { MetricsService } from '../../src/modules/observability/index.js';
import { RetentionService } from '../../src/modules/trigger/index.js';
import { type DbKind, type MetadataDb, openMetadataDb } from '../utils/metadata-db.js';
import { uniqueNamespace } from '../utils/test-node.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 5, 1);

/**
 * Retention (docs/long-tasks.md "Retention") on both engines, with short ages and a batch of 2 so every step
 * loops: old finished instances go with their attempts, log lines and settled deliveries; unfinished ones, ones
 * whose callback is still due, and recent ones stay; log lines older than the log age go, whoever owns them.
 */
describe.each<DbKind>(['sqlite', 'mysql'])('retention (%s)', (kind) => {
  const ns = uniqueNamespace('int-ret');
  let db: MetadataDb;
  let metrics: MetricsService;

  beforeAll(async () => {
    db = await openMetadataDb(kind, ns);
  });
  afterAll(async () => {
    await db?.ds.query('DELETE FROM job_log WHERE namespace = ?', [ns]);
    await db?.close();
  });

  /** A retention service of `ns`, ages in ms (0 = kept). */
  function service(finishedMs: number, logsMs: number): RetentionService {
    metrics = new MetricsService();
    const config = { namespace: ns, retention: { finishedMs, logsMs, intervalMs: 60_000, batch: 2 } } as AppConfig;
    const clock = { now: () => NOW, schedule: () => () => undefined };
    const { ds } = db;
    return new RetentionService(
      new InstanceRetention(ds),
      new CallbackDeliveryRepository(ds),
      new JobLogRepository(ds),
      new JobAttemptRepository(ds),
      new IdempotencyKeyRepository(ds),
      metrics,
      config,
      clock,
    );
  }

  /** An instance of `ns` in `status` finished `age` ms before NOW (null: not finished), with 2 attempts, 3 lines. */
  async function instance(status: S, age: number | null, callback?: CallbackState): Promise<string> {
    const fresh = {
      namespace: ns,
      appId: 'int',
      handler: 'h',
      fireTime: 1,
      triggerSource: TriggerSource.API,
      dueAt: 1,
    };
    const row = Object.assign(newJobInstance(fresh, 1), { status, finishedAt: age === null ? null : NOW - age });
    await db.ds.getRepository(JobInstance).save(row);
    for (const attempt of [1, 2]) await db.attempts.start(row.id, attempt, 'n-1', attempt, 1);
    for (const line of ['a', 'b', 'c']) await logLine(row.id, NOW, line);
    if (callback) {
      await db.ds.getRepository(CallbackDelivery).insert({
        id: `d-${row.id}`.slice(0, 36),
        namespace: ns,
        instanceId: row.id,
        appId: 'int',
        url: 'http://127.0.0.1:1/cb',
        host: '127.0.0.1:1',
        state: callback,
        nextAttemptAt: 1,
        finalAt: 1,
        createdAt: 1,
        updatedAt: 1,
      });
    }
    return row.id;
  }

  async function logLine(instanceId: string, at: number, line: string): Promise<void> {
    await db.ds.query(
      'INSERT INTO job_log (namespace, instance_id, attempt, node_id, at, level, line) VALUES (?, ?, 1, ?, ?, ?, ?)',
      [ns, instanceId, 'n-1', at, 'info', line],
    );
  }

  async function left(table: string, instanceId: string): Promise<number> {
    const col = table === 'job_instance' ? 'id' : 'instance_id';
    const rows = (await db.ds.query(`SELECT COUNT(*) AS c FROM ${table} WHERE ${col} = ?`, [instanceId])) as Array<{
      c: number | string;
    }>;
    return Number(rows[0].c);
  }

  async function removed(table: string): Promise<number> {
    const m = (await metrics.registry.getSingleMetric('tickwheel_retention_rows_removed_total')?.get())?.values ?? [];
    return m.find((v) => v.labels.table === table)?.value ?? 0;
  }

  it('should remove old finished instances with their rows, and keep unfinished, pending-callback and recent ones', async () => {
    const gone = [
      await instance(S.SUCCESS, 31 * DAY),
      await instance(S.FAILED, 40 * DAY, CallbackState.DELIVERED),
      await instance(S.TIMEOUT, 35 * DAY, CallbackState.CALLBACK_FAILED),
      await instance(S.CANCELLED, 50 * DAY),
      await instance(S.SUCCESS, 33 * DAY),
    ];
    const kept = [
      await instance(S.SUCCESS, 29 * DAY), // recent
      await instance(S.PENDING, 60 * DAY), // a retry waiting (finished_at of an earlier attempt)
      await instance(S.RUNNING, null),
      await instance(S.SUCCESS, 45 * DAY, CallbackState.PENDING),
      await instance(S.FAILED, 45 * DAY, CallbackState.RETRYING),
    ];
    await service(30 * DAY, 0).pass();
    for (const id of gone) {
      const counts = await Promise.all(
        ['job_instance', 'job_attempt', 'job_log', 'callback_delivery'].map((t) => left(t, id)),
      );
      expect({ id, counts }).toEqual({ id, counts: [0, 0, 0, 0] });
    }
    for (const id of kept) {
      expect({ id, instance: await left('job_instance', id), attempts: await left('job_attempt', id) }).toEqual({
        id,
        instance: 1,
        attempts: 2,
      });
    }
    expect(await left('callback_delivery', kept[3])).toBe(1);
    expect([await removed('job_instance'), await removed('job_attempt'), await removed('job_log')]).toEqual([
      5, 10, 15,
    ]);
    expect(await removed('callback_delivery')).toBe(2);
  });

  it('should remove log lines older than the log age only, and keep every kind with age 0', async () => {
    const id = await instance(S.RUNNING, null);
    for (let i = 0; i < 5; i++) await logLine(id, NOW - 8 * DAY - i, `old ${i}`);
    const old = await instance(S.SUCCESS, 100 * DAY);
    await service(0, 0).pass();
    expect([await left('job_log', id), await left('job_instance', old)]).toEqual([8, 1]);
    await service(0, 7 * DAY).pass();
    const lines = (await db.ds.query('SELECT line FROM job_log WHERE instance_id = ? ORDER BY id', [id])) as Array<{
      line: string;
    }>;
    expect(lines.map((l) => l.line)).toEqual(['a', 'b', 'c']);
    expect(await removed('job_log')).toBe(5);
    expect(await left('job_instance', old)).toBe(1);
  });
});
