import { DataSource, type DataSourceOptions, type QueryDeepPartialEntity } from 'typeorm';
import { newId } from '../../src/common/index.js';
import {
  BackoffKind,
  dataSourceOptions,
  JobDefinition,
  JobDefinitionRepository,
  MisfirePolicy,
  OverlapPolicy,
  RoutingStrategy,
  ScheduleState,
  ShardAssignmentRepository,
  TriggerType,
} from '../../src/modules/metadata/index.js';
import { MIGRATION_ENGINES, migratedTo, type MigrationDb } from '../utils/migration-db.js';

const OTHERS = 3000;

/** An enabled CRON job of `namespace` due at `next`. */
function dueJob(namespace: string, i: number, next: number): JobDefinition {
  return Object.assign(new JobDefinition(), {
    id: newId(),
    namespace,
    appId: 'app',
    code: `job-${String(i).padStart(5, '0')}`,
    description: null,
    handler: 'noop',
    callbackUrl: null,
    triggerType: TriggerType.CRON,
    triggerExpr: '0 * * * *',
    timeZone: 'UTC',
    params: {},
    routingStrategy: RoutingStrategy.ROUND_ROBIN,
    routingKey: null,
    shardTotal: 1,
    shardParams: null,
    misfirePolicy: MisfirePolicy.FIRE_ONCE_NOW,
    overlapPolicy: OverlapPolicy.ALLOW,
    maxConcurrency: 0,
    timeoutMs: 60_000,
    retryMax: 0,
    retryBackoffMs: 1000,
    retryBackoffKind: BackoffKind.FIXED,
    heartbeatTimeoutMs: 0,
    enabled: true,
    completedAt: null,
    scheduleState: ScheduleState.OK,
    scheduleError: null,
    nextFireTime: next,
    lastFireTime: null,
    version: 1,
    createdAt: next,
    updatedAt: next,
    createdBy: 'app',
    updatedBy: 'app',
  });
}

/**
 * Several namespaces on one database (docs/scaling.md step 1): the leader's page scan and the due detector of one
 * namespace read its own due rows only, through `ix_job_definition_ns_due (namespace, enabled, next_fire_time)`
 * (migration 1800000017000). Before it, the index began with `enabled`: a scan read every namespace's due rows and
 * dropped the others' (3,000 here), so K leaders on one database each read K times their horizon.
 */
describe.each(MIGRATION_ENGINES)('due scan of one namespace among others (%s)', (engine, makeDb) => {
  let db: MigrationDb;
  let migrated: DataSource;
  let ds: DataSource;
  let jobs: JobDefinitionRepository;
  const now = 1_800_000_000_000;

  beforeAll(async () => {
    db = await makeDb();
    migrated = await migratedTo(db);
    const base =
      db.options.type === 'mysql'
        ? dataSourceOptions({ database: { type: 'mysql', url: db.options.url as string } })
        : dataSourceOptions({ database: { type: 'better-sqlite3', path: db.options.database as string } });
    // One connection (after the migrations, which need two): the session's read counters are the repository's.
    ds = await new DataSource({ ...base, extra: { connectionLimit: 1 } } as DataSourceOptions).initialize();
    jobs = new JobDefinitionRepository(ds, new ShardAssignmentRepository(ds));
    const rows = [
      ...Array.from({ length: OTHERS }, (_, i) => dueJob('other', i, now - 60_000 + (i % 100))),
      ...Array.from({ length: 3 }, (_, i) => dueJob('mine', i, now + 1000 * i)),
    ];
    for (let i = 0; i < rows.length; i += 500)
      await ds.getRepository(JobDefinition).insert(rows.slice(i, i + 500) as QueryDeepPartialEntity<JobDefinition>[]);
  }, 300_000);

  afterAll(async () => {
    await ds?.destroy();
    await migrated?.destroy();
    await db?.drop();
  });

  it('the page scan and the due detector answer the namespace own rows', async () => {
    const refs = await jobs.findDueRefs('mine', now + 10_000, 5000);
    expect(refs.map((r) => r.next)).toEqual([now, now + 1000, now + 2000]);
    expect(await jobs.findOverdue('mine', now + 1500, 100)).toHaveLength(2);
    expect(await jobs.findDueRefs('other', now + 10_000, 5000)).toHaveLength(OTHERS);
  });

  it('reads no index entry of another namespace (MariaDB session counters)', async () => {
    if (engine !== 'MariaDB') return;
    const reads = async (): Promise<number> => {
      const rows: Array<{ Variable_name: string; Value: string }> = await ds.query(
        "SHOW SESSION STATUS WHERE Variable_name IN ('Handler_read_next', 'Handler_read_key')",
      );
      return rows.reduce((a, r) => a + Number(r.Value), 0);
    };
    const before = await reads();
    await jobs.findDueRefs('mine', now + 10_000, 5000);
    await jobs.findOverdue('mine', now + 1500, 100);
    const read = (await reads()) - before;
    process.stdout.write(`index reads of one namespace's scan and due check: ${read}\n`);
    // Own rows (3 + 2) and the keys looked up: far below the other namespace's 3,000 due rows.
    expect(read).toBeLessThan(100);
  });

  it('the migration goes down to the old index and up again', async () => {
    const indexes = async (): Promise<string[]> => {
      const runner = migrated.createQueryRunner();
      const t = await runner.getTable('job_definition');
      await runner.release();
      return (t?.indices ?? []).map((i) => i.name ?? '').filter((n) => n.includes('_due'));
    };
    expect(await indexes()).toEqual(['ix_job_definition_ns_due']);
    await migrated.undoLastMigration();
    expect(await indexes()).toEqual(['ix_job_definition_due']);
    await migrated.runMigrations();
    expect(await indexes()).toEqual(['ix_job_definition_ns_due']);
  });
});
