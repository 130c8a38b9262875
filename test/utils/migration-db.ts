import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { DataSource, DataSourceOptions } from 'typeorm';
import { MIGRATIONS, runMigrations } from '../../src/modules/metadata/index.js';
import { MYSQL_URL } from './test-node.js';

/** A fresh, empty database for a migration test, and how to drop it. */
export interface MigrationDb {
  options: DataSourceOptions;
  drop(): Promise<void>;
}

/**
 * The engines a migration must run on, for `describe.each`: SQLite (a file in a temporary folder) and MariaDB (a
 * database of its own on TEST_DB_URL's server, so the shared one's schema is never rolled back).
 */
export const MIGRATION_ENGINES: Array<[string, () => Promise<MigrationDb>]> = [
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
];

/** A data source on `db` with the first `count` migrations (default: all) applied, their logs kept quiet. */
export async function migratedTo(db: MigrationDb, count = MIGRATIONS.length): Promise<DataSource> {
  const ds = new DataSource({ ...db.options, migrations: MIGRATIONS.slice(0, count) } as DataSourceOptions);
  await ds.initialize();
  await runMigrations(ds, { log: () => undefined } as unknown as Logger);
  return ds;
}

/**
 * A suite's upgraded database (registers its beforeAll and afterAll): a fresh one of `makeDb`'s engine migrated to
 * the first `before` migrations, rows of that schema written by `seed`, then every migration applied.
 * @returns its holder; `ds` is the upgraded data source once beforeAll ran.
 */
export function upgradedWithRows(
  makeDb: () => Promise<MigrationDb>,
  before: number,
  seed: (old: DataSource) => Promise<void>,
): { ds: DataSource } {
  const out = {} as { ds: DataSource };
  let db: MigrationDb | undefined;
  beforeAll(async () => {
    db = await makeDb();
    const old = await migratedTo(db, before);
    await seed(old);
    await old.destroy();
    out.ds = await migratedTo(db);
  }, 60_000);
  afterAll(async () => {
    await out.ds?.destroy();
    await db?.drop();
  });
  return out;
}
