import { MIGRATIONS } from '../../src/modules/metadata/index.js';
import { MIGRATION_ENGINES, upgradedWithRows } from '../utils/migration-db.js';

const FIVE = ['tasks:read', 'tasks:write', 'jobs:read', 'jobs:write', 'nodes:read'];
const BEFORE_TENANCY = MIGRATIONS.findIndex((m) => m.name === 'Tenancy1797000000000');

/** A job_definition row of the schema before tenancy (no app_id; code unique per namespace). */
function jobRow(id: string, code: string, handler: string, createdBy: string | null): unknown[] {
  return [
    id,
    'ns',
    code,
    handler,
    'CRON',
    '0 0 * * * *',
    'UTC',
    '{}',
    'ROUND_ROBIN',
    1,
    'FIRE_ONCE_NOW',
    'ALLOW',
    0,
    60000,
    0,
    1000,
    'FIXED',
    1,
    'OK',
    1,
    1,
    1,
    createdBy,
    createdBy,
  ];
}
const JOB_COLUMNS =
  'id, namespace, code, handler, trigger_type, trigger_expr, time_zone, params, routing_strategy, shard_total, misfire_policy, overlap_policy, ' +
  'max_concurrency, timeout_ms, retry_max, retry_backoff_ms, retry_backoff_kind, enabled, schedule_state, version, created_at, updated_at, created_by, updated_by';

/**
 * Migration Tenancy1797000000000 on a database holding rows written before it (docs/tenancy.md "Apps, namespaces and
 * ownership"): jobs get their owner from created_by, clients keep what they could do (plus shell when they own a
 * shell job; a standalone data dir's own client gets admin too), and on MySQL/MariaDB app ids compare exactly.
 */
describe.each(MIGRATION_ENGINES)('tenancy migration on a database with rows (%s)', (engine, makeDb) => {
  const mysql = engine === 'MariaDB';

  const db = upgradedWithRows(makeDb, BEFORE_TENANCY, async (old) => {
    const client =
      'INSERT INTO api_client (app_id, secret_enc, enabled, rate_limit, callback_hosts, created_at) VALUES (?, ?, ?, ?, NULL, 1)';
    for (const [appId, rate] of [
      ['atk-a', 0],
      ['app-b', 7],
      ['standalone', 0],
    ] as const)
      await old.query(client, [appId, 'sealed', 1, rate]);
    const insert = `INSERT INTO job_definition (${JOB_COLUMNS}) VALUES (${JOB_COLUMNS.split(',')
      .map(() => '?')
      .join(', ')})`;
    await old.query(insert, jobRow('j-a', 'report', 'http', 'atk-a'));
    await old.query(insert, jobRow('j-b', 'backup', 'shell', 'app-b'));
    await old.query(insert, jobRow('j-x', 'orphan', 'http', null));
    if (mysql)
      expect(await old.query("SELECT app_id FROM api_client WHERE app_id = 'ATK-A'")).toEqual([{ app_id: 'atk-a' }]); // what the replay used
  });

  it('should give every job its creator as owner (none: empty), and let two apps use one code', async () => {
    const rows: Array<{ id: string; app_id: string }> = await db.ds.query(
      'SELECT id, app_id FROM job_definition ORDER BY id',
    );
    expect(rows).toEqual([
      { id: 'j-a', app_id: 'atk-a' },
      { id: 'j-b', app_id: 'app-b' },
      { id: 'j-x', app_id: '' },
    ]);
    const insert = `INSERT INTO job_definition (${JOB_COLUMNS}, app_id) VALUES (${JOB_COLUMNS.split(',')
      .map(() => '?')
      .join(', ')}, ?)`;
    await db.ds.query(insert, [...jobRow('j-b2', 'report', 'http', 'app-b'), 'app-b']);
    await expect(db.ds.query(insert, [...jobRow('j-b3', 'report', 'http', 'app-b'), 'app-b'])).rejects.toThrow(
      /UNIQUE|Duplicate/i,
    );
  });

  it('should keep the five ordinary scopes, add shell to an owner of a shell job, and admin to the standalone owner on SQLite only', async () => {
    const rows: Array<{ app_id: string; scopes: string; rate_limit: number | null }> = await db.ds.query(
      'SELECT app_id, scopes, rate_limit FROM api_client ORDER BY app_id',
    );
    expect(
      rows.map((r) => [r.app_id, JSON.parse(r.scopes), r.rate_limit === null ? null : Number(r.rate_limit)]),
    ).toEqual([
      ['app-b', [...FIVE, 'shell'], 7],
      ['atk-a', FIVE, null],
      ['standalone', mysql ? FIVE : [...FIVE, 'shell', 'admin'], null],
    ]);
  });

  it('should compare app ids and job codes exactly (MariaDB: ATK-A, Atk-a and àtk-a no longer find atk-a)', async () => {
    for (const spelling of ['ATK-A', 'Atk-a', 'àtk-a'])
      expect(await db.ds.query('SELECT app_id FROM api_client WHERE app_id = ?', [spelling])).toEqual([]);
    expect(await db.ds.query('SELECT app_id FROM api_client WHERE app_id = ?', ['atk-a'])).toEqual([
      { app_id: 'atk-a' },
    ]);
    expect(await db.ds.query('SELECT id FROM job_definition WHERE code = ?', ['REPORT'])).toEqual([]);
  });
});
