import type { DataSource, Logger as TypeOrmLogger } from 'typeorm';
import { isLockConflict, isTransientDbError, isUniqueViolation } from './repositories/db-errors.js';

/** What a failed statement or connection attempt was (the `kind` label of `tickwheel_db_errors_total`). */
export type DbErrorKind = 'conflict' | 'connection' | 'other';

/** Receives one count per failure. */
export type DbErrorSink = (kind: DbErrorKind) => void;

/**
 * Classifies a driver error: `conflict` (unique key, deadlock, lock wait: the callers handle these), `connection`
 * (lost, refused, killed or exhausted connection, busy SQLite file: isTransientDbError), `other` (the rest).
 */
export function dbErrorKind(err: unknown): DbErrorKind {
  if (isUniqueViolation(err) || isLockConflict(err)) return 'conflict';
  return isTransientDbError(err) ? 'connection' : 'other';
}

/**
 * A TypeORM logger that writes nothing and counts every failed statement: TypeORM calls `logQueryError` for each
 * statement the driver rejects, whatever `logging` says, so retried and caught failures count too.
 */
export class DbErrorCounter implements TypeOrmLogger {
  constructor(readonly sink: DbErrorSink) {}

  logQueryError(error: string | Error): void {
    this.sink(dbErrorKind(error));
  }

  logQuery(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}

/**
 * Counts the pool's failed connection attempts (kind `connection`) of a MySQL/MariaDB DataSource: they fail before
 * a statement runs, so `logQueryError` never sees them, and they are what a database that is down produces.
 * SQLite has no pool: nothing to count.
 */
export function countConnectionFailures(ds: DataSource, sink: DbErrorSink): void {
  if (ds.options.type !== 'mysql') return;
  const driver = ds.driver as unknown as { obtainMasterConnection: () => Promise<unknown> };
  const obtain = driver.obtainMasterConnection.bind(driver);
  driver.obtainMasterConnection = () =>
    obtain().catch((err: unknown) => {
      sink('connection');
      throw err;
    });
}
