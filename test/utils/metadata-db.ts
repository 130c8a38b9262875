import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  AdmissionInstances,
  dataSourceOptions,
  DispatchLedger,
  ExecutionInstances,
  FireLedger,
  InstanceReads,
  InstanceTransitions,
  JobAttemptRepository,
  JobInstance,
  JobInstanceStatus,
  newJobInstance,
  runMigrations,
  TriggerSource,
} from '../../src/modules/metadata/index.js';
import { deleteNamespaceRows } from './namespace-rows.js';
import { MYSQL_URL } from './test-node.js';

/** The job_instance query objects a test sets rows up and reads them back with (the product's own code). */
export interface InstanceQueries {
  /** insertIgnore: rows as the fire ledger writes them. */
  fires: FireLedger;
  reads: InstanceReads;
  transitions: InstanceTransitions;
  execution: ExecutionInstances;
  admission: AdmissionInstances;
  dispatch: DispatchLedger;
}

/** The query objects of `ds`, or those a running app uses (`app`: a spy on one sees the app's own calls). */
export function instanceQueries(from: DataSource | INestApplicationContext): InstanceQueries {
  const get = <T>(type: new (ds: DataSource) => T): T => (from instanceof DataSource ? new type(from) : from.get(type));
  return {
    fires: get(FireLedger),
    reads: get(InstanceReads),
    transitions: get(InstanceTransitions),
    execution: get(ExecutionInstances),
    admission: get(AdmissionInstances),
    dispatch: get(DispatchLedger),
  };
}

/** The two databases the metadata module runs on. */
export type DbKind = 'mysql' | 'sqlite';

/** A migrated DataSource of `kind` with the instance and attempt repositories, for integration tests. */
export interface MetadataDb {
  ds: DataSource;
  instances: InstanceQueries;
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
    instances: instanceQueries(ds),
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
    instance: (await db.instances.reads.findById(id))?.status,
    attempt: (await db.attempts.listForInstance(id)).map((a) => a.status),
  };
}
