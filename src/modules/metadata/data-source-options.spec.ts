import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source-options.js';

describe(dataSourceOptions.name, () => {
  const dir = mkdtempSync(join(tmpdir(), 'tw-ds-options-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // TypeORM 1's peer range for better-sqlite3 is ^12: in an app that installs Tickwheel, npm may put a 12 where
  // TypeORM's own lookup finds it, beside the 13 Tickwheel depends on. The driver is handed over, never looked up.
  it("should open SQLite through Tickwheel's own better-sqlite3", async () => {
    const options = dataSourceOptions({ database: { type: 'better-sqlite3', path: join(dir, 'a', 't.sqlite') } });
    expect(options).toMatchObject({ type: 'better-sqlite3', driver: Database });
    const ds = await new DataSource({ ...options, entities: [], migrations: [] }).initialize();
    try {
      expect((ds.driver as unknown as { sqlite: unknown }).sqlite).toBe(Database);
      expect(await ds.query('PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
    } finally {
      await ds.destroy();
    }
  });
});
