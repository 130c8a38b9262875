import { randomUUID } from 'node:crypto';
import { JobInstanceStatus as S, newJobInstance, StagedKind, TriggerSource } from '../../src/modules/metadata/index.js';
import { LeaderDuties } from '../../src/modules/trigger/index.js';
import { type MetadataDb, openMetadataDb } from '../utils/metadata-db.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import { clusterEnv, startNode, uniqueNamespace } from '../utils/test-node.js';

/**
 * A scheduler stopped while its takeback of staged fires runs (docs/trigger.md "Staging"): shutdown waits for the
 * takeback, then loads and fires nothing. The seconds it took back must still have their rows. The takeback is
 * held deterministically by a lock the test takes on one job row.
 */
describe('Takeback across a shutdown (MariaDB + Redis)', () => {
  const ns = uniqueNamespace('int-tb-stop');
  let db: MetadataDb;

  beforeAll(async () => {
    db = await openMetadataDb('mysql', ns);
  });

  afterAll(async () => {
    await deleteNamespaceRows(db?.ds, ns, { definitions: true });
    await db?.close();
  });

  /** A FIRE_ALL job every second: MISFIRE rows before `from`, unrouted staged fires over [from, to], next after. */
  async function job(from: number, to: number): Promise<string> {
    const id = randomUUID();
    const now = Date.now();
    await db.ds.query(
      `INSERT INTO job_definition (id, namespace, code, handler, trigger_type, trigger_expr, time_zone,
         routing_strategy, shard_total, misfire_policy, overlap_policy, max_concurrency, timeout_ms, retry_max,
         retry_backoff_ms, retry_backoff_kind, enabled, schedule_state, next_fire_time, version, created_at, updated_at)
       VALUES (?, ?, ?, 'nobody.serves.this', 'FIXED_RATE', '1000', 'UTC', 'ROUND_ROBIN', 1, 'FIRE_ALL', 'ALLOW', 0,
         60000, 0, 1000, 'FIXED', 1, 'OK', ?, 1, ?, ?)`,
      [id, ns, `every-second-${id.slice(0, 8)}`, to + 1000, now, now],
    );
    const rows = [];
    for (let t = from - 3000; t <= to; t += 1000) {
      const source = t < from ? TriggerSource.MISFIRE : TriggerSource.SCHEDULE;
      const fresh = { namespace: ns, appId: 'int', jobId: id, handler: 'nobody.serves.this', fireTime: t, dueAt: t };
      const staged = source === TriggerSource.SCHEDULE ? StagedKind.FIRE : null; // written ahead, never released
      rows.push(
        Object.assign(newJobInstance({ ...fresh, triggerSource: source }, t - 2500), { status: S.PENDING, staged }),
      );
    }
    await db.instances.fires.insertIgnore(db.ds.manager, rows);
    return id;
  }

  async function holes(jobId: string): Promise<number[]> {
    const rows: Array<{ t: string | number }> = await db.ds.query(
      'SELECT fire_time AS t FROM job_instance WHERE job_id = ? ORDER BY fire_time',
      [jobId],
    );
    const times = new Set(rows.map((r) => Number(r.t)));
    const out: number[] = [];
    for (let t = Number(rows[0].t); t <= Number(rows[rows.length - 1].t); t += 1000) if (!times.has(t)) out.push(t);
    return out;
  }

  it('should leave no fire time without a row when the leader stops during its takeback', async () => {
    const now = Date.now();
    const grid = now - (now % 1000);
    const ids = [await job(grid - 12_000, grid + 2000), await job(grid - 12_000, grid + 2000)];
    const held = db.ds.createQueryRunner();
    await held.startTransaction();
    await held.query('SELECT id FROM job_definition WHERE id = ? FOR UPDATE', [[...ids].sort()[1]]);
    // It leads at start and its takeback waits on the held row.
    const node = await startNode(clusterEnv(ns, { ROLES: 'scheduler', MISFIRE_THRESHOLD_MS: '5000' }));
    // The scheduler's part of shutdown: duties stop at once, then it waits for the takeback.
    const stopped = node.app.get(LeaderDuties).beforeApplicationShutdown();
    await held.rollbackTransaction();
    await held.release();
    await stopped;
    await node.close();
    expect(await holes(ids[0])).toEqual([]);
    expect(await holes(ids[1])).toEqual([]);
  }, 60_000);
});
