import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../src/modules/metadata/index.js';
import { MIGRATION_ENGINES, upgradedWithRows } from '../utils/migration-db.js';

const BEFORE_STAGED = MIGRATIONS.findIndex((m) => m.name === 'InstanceStaged1800000002000');

/** A job_instance row of the schema before the staged column, as the previous version left it. */
interface OldRow {
  id: string;
  source: 'SCHEDULE' | 'API';
  status: string;
  attempt?: number;
  created: number;
  fire: number;
  due: number;
  dispatched?: number;
  started?: number;
}

/** Rows in every state the previous version could leave, with the mark the migration must give each. */
const ROWS: Array<[OldRow, string | null]> = [
  [
    {
      id: 'fire-routed',
      source: 'SCHEDULE',
      status: 'DISPATCHED',
      created: 1000,
      fire: 3500,
      due: 3500,
      dispatched: 3500,
    },
    'FIRE',
  ],
  [{ id: 'fire-unrouted', source: 'SCHEDULE', status: 'PENDING', created: 1000, fire: 3500, due: 3500 }, 'FIRE'],
  [{ id: 'fire-due-now', source: 'SCHEDULE', status: 'PENDING', created: 3500, fire: 3500, due: 3500 }, null],
  [
    {
      id: 'fire-claimed',
      source: 'SCHEDULE',
      status: 'RUNNING',
      created: 1000,
      fire: 3500,
      due: 3500,
      dispatched: 3500,
      started: 3500,
    },
    null,
  ],
  [
    {
      id: 'delayed-staged',
      source: 'API',
      status: 'DISPATCHED',
      created: 1000,
      fire: 1000,
      due: 5000,
      dispatched: 5000,
    },
    'DELAYED',
  ],
  [
    {
      id: 'retry-staged',
      source: 'SCHEDULE',
      status: 'DISPATCHED',
      attempt: 2,
      created: 1000,
      fire: 500,
      due: 9000,
      dispatched: 9000,
    },
    'DELAYED',
  ],
  [
    {
      id: 'task-dispatched',
      source: 'API',
      status: 'DISPATCHED',
      created: 1000,
      fire: 1000,
      due: 1000,
      dispatched: 1200,
    },
    null,
  ],
  [{ id: 'task-delayed', source: 'API', status: 'PENDING', created: 1000, fire: 1000, due: 5000 }, null],
];

async function insertOld(ds: DataSource, r: OldRow): Promise<void> {
  await ds.query(
    'INSERT INTO job_instance (id, namespace, app_id, request_id, job_id, handler, fire_time, trigger_source, status,' +
      ' attempt, timeout_ms, trace_id, due_at, created_at, updated_at, dispatched_at, started_at, node_id)' +
      ' VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      r.id,
      'ns',
      'app',
      r.id,
      r.source === 'SCHEDULE' ? `job-${r.id}` : null,
      'h',
      r.fire,
      r.source,
      r.status,
      r.attempt ?? 1,
      60_000,
      r.id,
      r.due,
      r.created,
      r.created,
      r.dispatched ?? null,
      r.started ?? null,
      r.dispatched === undefined ? null : 'n-1',
    ],
  );
}

/**
 * Migration InstanceStaged1800000002000 on a database holding rows of the previous version (docs/data-model.md
 * "Migrations"): the rows that version staged are marked by its own inference, so an upgrade neither takes back nor
 * forgets a staged row in flight; `down` drops the column.
 */
describe.each(MIGRATION_ENGINES)('staged migration on a database with rows (%s)', (_engine, makeDb) => {
  const db = upgradedWithRows(makeDb, BEFORE_STAGED, async (old) => {
    for (const [row] of ROWS) await insertOld(old, row);
  });

  it('should mark the fires and delayed rows the previous version staged, and no other row', async () => {
    const rows: Array<{ id: string; staged: string | null }> = await db.ds.query('SELECT id, staged FROM job_instance');
    const staged = new Map(rows.map((r) => [r.id, r.staged]));
    expect(ROWS.map(([r]) => [r.id, staged.get(r.id)])).toEqual(ROWS.map(([r, mark]) => [r.id, mark]));
  });

  it('should drop the column on down', async () => {
    // the later migrations first, then this one
    for (let i = MIGRATIONS.length - 1; i >= BEFORE_STAGED; i--) await db.ds.undoLastMigration({ transaction: 'each' });
    await expect(db.ds.query('SELECT staged FROM job_instance')).rejects.toThrow(/staged/);
    const [{ n }] = (await db.ds.query('SELECT COUNT(*) AS n FROM job_instance')) as Array<{ n: number | string }>;
    expect(Number(n)).toBe(ROWS.length);
  });
});
