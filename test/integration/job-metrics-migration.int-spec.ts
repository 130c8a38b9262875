import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../src/modules/metadata/index.js';
import { MIGRATION_ENGINES, upgradedWithRows } from '../utils/migration-db.js';

const BEFORE = MIGRATIONS.findIndex((m) => m.name === 'JobMetrics1800000004000');

/** A job_definition row of the schema before the migration: job `id` of app `app` in namespace `ns`. */
async function insertOld(ds: DataSource, id: string, ns: string, app = 'app'): Promise<void> {
  await ds.query(
    'INSERT INTO job_definition (id, namespace, app_id, code, handler, trigger_type, trigger_expr, time_zone,' +
      ' routing_strategy, misfire_policy, overlap_policy, timeout_ms, retry_backoff_kind, enabled, schedule_state,' +
      " version, created_at, updated_at) VALUES (?, ?, ?, ?, 'noop', 'CRON', '0 0 1 1 *', 'UTC', 'ROUND_ROBIN'," +
      " 'FIRE_ONCE_NOW', 'ALLOW', 60000, 'FIXED', 1, 'OK', 1, 1, 1)",
    [id, ns, app, id],
  );
}

/**
 * Migration JobMetrics1800000004000 (docs/data-model.md "Migrations") on a database holding jobs of the previous
 * version, on both engines: every job keeps metrics off, the slots are unique per namespace, `down` drops them.
 */
describe.each(MIGRATION_ENGINES)('job metrics migration on a database with jobs (%s)', (_engine, makeDb) => {
  const db = upgradedWithRows(makeDb, BEFORE, async (old) => {
    for (const id of ['j1', 'j2']) await insertOld(old, id, 'ns');
    await insertOld(old, 'j3', 'other');
  });

  const slot = (id: string, s: number | null) =>
    db.ds.query('UPDATE job_definition SET metrics_slot = ? WHERE id = ?', [s, id]);

  it('should leave every job without metrics, and take each slot once per namespace', async () => {
    const rows: Array<{ id: string; metrics_slot: number | null }> = await db.ds.query(
      'SELECT id, metrics_slot FROM job_definition ORDER BY id',
    );
    expect(rows.map((r) => [r.id, r.metrics_slot])).toEqual([
      ['j1', null],
      ['j2', null],
      ['j3', null],
    ]);
    await slot('j1', 0);
    await slot('j3', 0); // another namespace's slot 0
    await expect(slot('j2', 0)).rejects.toThrow(/uq_job_definition_ns_metrics_slot|job_definition\.metrics_slot/);
    await slot('j2', 1);
  });

  it('should drop the column and its index on down', async () => {
    for (let i = MIGRATIONS.length - 1; i >= BEFORE; i--) await db.ds.undoLastMigration({ transaction: 'each' });
    await expect(db.ds.query('SELECT metrics_slot FROM job_definition')).rejects.toThrow(/metrics_slot/);
    const [{ n }] = (await db.ds.query('SELECT COUNT(*) AS n FROM job_definition')) as Array<{ n: number | string }>;
    expect(Number(n)).toBe(3);
  });
});
