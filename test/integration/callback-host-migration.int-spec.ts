import { MIGRATIONS } from '../../src/modules/metadata/index.js';
import { MIGRATION_ENGINES, upgradedWithRows } from '../utils/migration-db.js';

const BEFORE = MIGRATIONS.findIndex((m) => m.name === 'CallbackHostPerApp1800000005000');

/**
 * Migration CallbackHostPerApp1800000005000 on a database of the previous version (docs/data-model.md
 * "Migrations"): `callback_host` held soft state per (namespace, host), so it is rebuilt empty, keyed by
 * (namespace, app_id, host); the deliveries are kept, waiting ones included (a host down before the upgrade is
 * tried again); `down` rebuilds the old table.
 */
describe.each(MIGRATION_ENGINES)('callback host per app migration on a database with rows (%s)', (_engine, makeDb) => {
  const db = upgradedWithRows(makeDb, BEFORE, async (old) => {
    await old.query(
      'INSERT INTO callback_host (namespace, host, consecutive_failures, down_since, next_probe_at, probes,' +
        ' last_error, last_app_id, updated_at) VALUES (?, ?, 3, 1000, 2000, 1, ?, ?, 1000)',
      ['ns', 'hooks.example.com:443', 'HTTP 503', 'app-b'],
    );
    await old.query(
      'INSERT INTO callback_delivery (id, namespace, instance_id, app_id, url, host, state, attempts,' +
        ' next_attempt_at, final_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 3, 1, 1, 1, 1)',
      ['d-1', 'ns', 'i-1', 'app-a', 'https://hooks.example.com/x', 'hooks.example.com:443', 'RETRYING'],
    );
  });

  it('should rebuild callback_host keyed by (namespace, app_id, host) and keep every delivery', async () => {
    expect(await db.ds.query('SELECT * FROM callback_host')).toEqual([]);
    const insert =
      'INSERT INTO callback_host (namespace, app_id, host, consecutive_failures, probes, probe_id, last_error,' +
      ' updated_at) VALUES (?, ?, ?, 1, 0, NULL, ?, 1)';
    await db.ds.query(insert, ['ns', 'app-a', 'hooks.example.com:443', 'HTTP 503']);
    await db.ds.query(insert, ['ns', 'app-b', 'hooks.example.com:443', 'HTTP 503']); // another app, the same host
    await db.ds.query(insert, ['ns', 'APP-A', 'hooks.example.com:443', 'HTTP 503']); // app ids compare exactly
    await expect(db.ds.query(insert, ['ns', 'app-a', 'hooks.example.com:443', 'x'])).rejects.toThrow();
    const [{ n }] = (await db.ds.query('SELECT COUNT(*) AS n FROM callback_host')) as Array<{ n: number | string }>;
    expect(Number(n)).toBe(3);
    const kept = (await db.ds.query('SELECT id, state FROM callback_delivery')) as Array<{ id: string }>;
    expect(kept).toEqual([{ id: 'd-1', state: 'RETRYING' }]);
  });

  it('should rebuild the previous table on down', async () => {
    // the later migrations first, then this one
    for (let i = MIGRATIONS.length - 1; i >= BEFORE; i--) await db.ds.undoLastMigration({ transaction: 'each' });
    await expect(db.ds.query('SELECT app_id FROM callback_host')).rejects.toThrow(/app_id/);
    await db.ds.query(
      'INSERT INTO callback_host (namespace, host, consecutive_failures, probes, last_app_id, updated_at)' +
        ' VALUES (?, ?, 0, 0, ?, 1)',
      ['ns', 'hooks.example.com:443', 'app-a'],
    );
  });
});
