import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { DataSource, DataSourceOptions } from 'typeorm';
import { MIGRATIONS, runMigrations } from '../../src/modules/metadata/index.js';
import { MYSQL_URL } from '../utils/test-node.js';

const BEFORE_STAGED = MIGRATIONS.findIndex((m) => m.name === 'InstanceStaged1800000002000');
const quiet = { log: () => undefined } as unknown as Logger;

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
describe.each<[string, () => Promise<{ options: DataSourceOptions; drop(): Promise<void> }>]>([
  [
    'SQLite',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'tw-mig-'));
      return {
        options: { type: 'better-sqlite3', database: join(dir, 'db.sqlite') },
        drop: async () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  ],
  [
    'MariaDB',
    async () => {
      const name = `tw_mig_${randomUUID().slice(0, 8)}`;
      const admin = new DataSource({ type: 'mysql', url: MYSQL_URL });
      await admin.initialize();
      await admin.query(`CREATE DATABASE ${name} CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci`);
      return {
        options: { type: 'mysql', url: MYSQL_URL.replace(/\/[^/]*$/, `/${name}`), charset: 'utf8mb4' },
        drop: async () => {
          await admin.query(`DROP DATABASE ${name}`);
          await admin.destroy();
        },
      };
    },
  ],
])('staged migration on a database with rows (%s)', (_engine, makeDb) => {
  let db: Awaited<ReturnType<typeof makeDb>>;
  let ds: DataSource;

  beforeAll(async () => {
    db = await makeDb();
    const old = new DataSource({ ...db.options, migrations: MIGRATIONS.slice(0, BEFORE_STAGED) } as DataSourceOptions);
    await old.initialize();
    await runMigrations(old, quiet);
    for (const [row] of ROWS) await insertOld(old, row);
    await old.destroy();
    ds = new DataSource({ ...db.options, migrations: MIGRATIONS } as DataSourceOptions);
    await ds.initialize();
    await runMigrations(ds, quiet);
  }, 60_000);
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('should mark the fires and delayed rows the previous version staged, and no other row', async () => {
    const rows: Array<{ id: string; staged: string | null }> = await ds.query('SELECT id, staged FROM job_instance');
    const staged = new Map(rows.map((r) => [r.id, r.staged]));
    expect(ROWS.map(([r]) => [r.id, staged.get(r.id)])).toEqual(ROWS.map(([r, mark]) => [r.id, mark]));
  });

  it('should drop the column on down', async () => {
    await ds.undoLastMigration({ transaction: 'each' });
    await expect(ds.query('SELECT staged FROM job_instance')).rejects.toThrow(/staged/);
    const [{ n }] = (await ds.query('SELECT COUNT(*) AS n FROM job_instance')) as Array<{ n: number | string }>;
    expect(Number(n)).toBe(ROWS.length);
  });
});
