import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import {
  dataSourceOptions,
  JobAttemptRepository,
  JobInstance,
  JobInstanceRepository,
  JobInstanceStatus,
  newJobInstance,
  runMigrations,
  TriggerSource,
} from '../../src/modules/metadata/index.js';
import { deleteNamespaceRows } from './namespace-rows.js';
import { MYSQL_URL } from './test-node.js';

/** The two databases the metadata module runs on. */
export type DbKind = 'mysql' | 'sqlite';

/** A migrated DataSource of `kind` with the instance and attempt repositories, for integration tests. */
export interface MetadataDb {
  ds: DataSource;
  instances: JobInstanceRepository;
  attempts: JobAttemptRepository;
  /** Removes namespace `ns`'s instances and attempts (MySQL; SQLite's file goes whole), then closes. */
  close(): Promise<void>;
}

/** Opens the test database `kind` (MySQL: TEST_DB_URL; SQLite: a fresh file in a temporary folder). */
export async function openMetadataDb(kind: DbKind, ns: string): Promise<MetadataDb> {
  const dir = kind === 'sqlite' ? mkdtempSync(join(tmpdir(), 'tw-metadata-')) : undefined;
  const database = dir
    ? { type: 'better-sqlite3' as const, path: join(dir, 'db.sqlite') }
    : { type: 'mysql' as const, url: MYSQL_URL };
  const ds = await new DataSource(dataSourceOptions({ database })).initialize();
  await runMigrations(ds);
  return {
    ds,
    instances: new JobInstanceRepository(ds),
    attempts: new JobAttemptRepository(ds),
    async close() {
      if (!dir) await deleteNamespaceRows(ds, ns);
      await ds.destroy();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A RUNNING API task of namespace `ns` on node n-1 at attempt 1, token 1, with its RUNNING attempt row. */
export async function runningInstance(db: MetadataDb, ns: string): Promise<string> {
  const fresh = { namespace: ns, appId: 'int', handler: 'h', fireTime: 1, triggerSource: TriggerSource.API, dueAt: 1 };
  const row = newJobInstance(fresh, 1);
  Object.assign(row, { status: JobInstanceStatus.RUNNING, nodeId: 'n-1', fencingToken: 1, startedAt: 1 });
  await db.ds.getRepository(JobInstance).save(row);
  await db.attempts.start(row.id, 1, 'n-1', 1, 1);
  return row.id;
}

/** The status of instance `id` and of each of its attempts. */
export async function instanceAndAttempts(
  db: MetadataDb,
  id: string,
): Promise<{ instance?: string; attempt: string[] }> {
  return {
    instance: (await db.instances.findById(id))?.status,
    attempt: (await db.attempts.listForInstance(id)).map((a) => a.status),
  };
}
