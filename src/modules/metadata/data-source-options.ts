import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { DataSourceOptions } from 'typeorm';
import { AppConfig } from '../../config/index.js';
import { ENTITIES } from './entities/index.js';
import { InitialSchema1764490000000 } from './migrations/1764490000000-initial-schema.js';
import { InstanceMaxConcurrency1796040000000 } from './migrations/1796040000000-instance-max-concurrency.js';
import { InstanceJobStatusIndex1796070000000 } from './migrations/1796070000000-instance-job-status-index.js';
import { Tenancy1797000000000 } from './migrations/1797000000000-tenancy.js';
import { Callbacks1798000000000 } from './migrations/1798000000000-callbacks.js';
import { CallbackNamespace1798000001000 } from './migrations/1798000001000-callback-namespace.js';
import { LongTasks1799000000000 } from './migrations/1799000000000-long-tasks.js';
import { IdempotencyKeys1800000000000 } from './migrations/1800000000000-idempotency-keys.js';
import { IdempotencyKeyBinary1800000001000 } from './migrations/1800000001000-idempotency-key-binary.js';
import { InstanceStaged1800000002000 } from './migrations/1800000002000-instance-staged.js';
import { WorkerNodeApp1800000003000 } from './migrations/1800000003000-worker-node-app.js';
import { JobMetrics1800000004000 } from './migrations/1800000004000-job-metrics.js';
import { CallbackHostPerApp1800000005000 } from './migrations/1800000005000-callback-host-per-app.js';
import { Notifications1800000006000 } from './migrations/1800000006000-notifications.js';
import { JobPausedReason1800000007000 } from './migrations/1800000007000-job-paused-reason.js';
import { ShellIdentity1800000008000 } from './migrations/1800000008000-shell-identity.js';
import { InstanceTaskName1800000009000 } from './migrations/1800000009000-instance-task-name.js';
import { JobShardAssignment1800000010000 } from './migrations/1800000010000-job-shard-assignment.js';
import { TimeoutMode1800000011000 } from './migrations/1800000011000-timeout-mode.js';
import { JobQueueLimit1800000012000 } from './migrations/1800000012000-job-queue-limit.js';
import { Priority1800000013000 } from './migrations/1800000013000-priority.js';
import { InstanceTraceparent1800000014000 } from './migrations/1800000014000-instance-traceparent.js';
import { JobDueNamespaceIndex1800000017000 } from './migrations/1800000017000-job-due-namespace-index.js';

/** Every migration, in order; no globs, so the list works from src/ under jest and from dist/. */
export const MIGRATIONS = [
  InitialSchema1764490000000,
  InstanceMaxConcurrency1796040000000,
  InstanceJobStatusIndex1796070000000,
  Tenancy1797000000000,
  Callbacks1798000000000,
  CallbackNamespace1798000001000,
  LongTasks1799000000000,
  IdempotencyKeys1800000000000,
  IdempotencyKeyBinary1800000001000,
  InstanceStaged1800000002000,
  WorkerNodeApp1800000003000,
  JobMetrics1800000004000,
  CallbackHostPerApp1800000005000,
  Notifications1800000006000,
  JobPausedReason1800000007000,
  ShellIdentity1800000008000,
  InstanceTaskName1800000009000,
  JobShardAssignment1800000010000,
  TimeoutMode1800000011000,
  JobQueueLimit1800000012000,
  Priority1800000013000,
  InstanceTraceparent1800000014000,
  JobDueNamespaceIndex1800000017000,
];

/**
 * TypeORM options for both shapes (docs/architecture.md); the schema is the migrations, never `synchronize`.
 * MySQL: connecting waits at most STORAGE_TIMEOUT_MS (10 s when not given; db-deadline.ts bounds the rest).
 * SQLite: WAL mode, a busy timeout, and the better-sqlite3 this package depends on as the driver (TypeORM 1 asks
 * for ^12 as a peer, so an app that installs Tickwheel may have a 12 where TypeORM would look for it).
 */
export function dataSourceOptions(
  config: Pick<AppConfig, 'database'> & Partial<Pick<AppConfig, 'storageTimeoutMs'>>,
): DataSourceOptions {
  const common = {
    entities: ENTITIES,
    migrations: MIGRATIONS,
    synchronize: false,
    migrationsRun: false,
    logging: false,
  } as const;
  if (config.database.type === 'mysql') {
    return {
      ...common,
      type: 'mysql',
      url: config.database.url,
      timezone: 'Z',
      charset: 'utf8mb4',
      connectTimeout: config.storageTimeoutMs ?? 10_000,
      extra: { connectionLimit: 20 },
    };
  }
  mkdirSync(dirname(config.database.path), { recursive: true });
  return {
    ...common,
    type: 'better-sqlite3',
    driver: Database,
    database: config.database.path,
    enableWAL: true,
    prepareDatabase: (db: { pragma(s: string): unknown }) => {
      db.pragma('busy_timeout = 5000');
      db.pragma('synchronous = NORMAL');
    },
  };
}
