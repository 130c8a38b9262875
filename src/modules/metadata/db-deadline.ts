import type { DataSource } from 'typeorm';

/** The `code` of a connection wait or statement cut by {@link boundStatements}. */
export const DB_DEADLINE_CODE = 'TW_DB_DEADLINE';

/** A wait for a pooled connection or a statement that took longer than STORAGE_TIMEOUT_MS. */
class DbDeadlineError extends Error {
  readonly code = DB_DEADLINE_CODE;
}

type Callback = (...result: unknown[]) => void;

/** The part of a mysql2 pool connection this uses. */
interface PooledConnection {
  query: (...args: unknown[]) => unknown;
  destroy(): void;
  release(): void;
  [BOUND]?: true;
}

const BOUND = Symbol('tickwheel.boundStatements');

let lastFaultAt = 0;

/** True when a wait was cut or a connection failed within the last `ms` (the API's answer deadline asks). */
export function dbFaultWithin(ms: number): boolean {
  return Date.now() - lastFaultAt <= ms;
}

function cut(message: string): DbDeadlineError {
  lastFaultAt = Date.now();
  return new DbDeadlineError(message);
}

/**
 * Bounds every wait on a MySQL/MariaDB DataSource to its connectTimeout (STORAGE_TIMEOUT_MS; docs/deploy.md "When
 * MySQL or Redis cannot be reached"): getting a pooled connection (connecting included) and each statement with a
 * callback (every TypeORM query). A database that stops answering (SIGSTOP: the TCP connection stays open) fails
 * the caller with code TW_DB_DEADLINE instead of holding it; the cut statement's connection is destroyed (the
 * server rolls back what it had not committed, the pool never lends it again), a connection that arrives after
 * its wait is given back. Install after the migrations (GET_LOCK waits up to 120 s). SQLite: left as it is.
 */
export function boundStatements(ds: DataSource): void {
  if (ds.options.type !== 'mysql') return;
  const ms = ds.options.connectTimeout ?? 10_000;
  const driver = ds.driver as unknown as { obtainMasterConnection: () => Promise<PooledConnection> };
  const obtain = driver.obtainMasterConnection.bind(driver);
  driver.obtainMasterConnection = () => acquire(obtain, ms).then((c) => bindQueries(c, ms));
}

function acquire(obtain: () => Promise<PooledConnection>, ms: number): Promise<PooledConnection> {
  return new Promise((resolve, reject) => {
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      reject(cut(`no database connection within ${ms} ms`));
    }, ms);
    obtain().then(
      (c) => {
        clearTimeout(timer);
        if (late) c.release();
        else resolve(c);
      },
      (err: unknown) => {
        clearTimeout(timer);
        lastFaultAt = Date.now();
        if (!late) reject(err);
      },
    );
  });
}

function bindQueries(c: PooledConnection, ms: number): PooledConnection {
  if (c[BOUND]) return c;
  c[BOUND] = true;
  const query = c.query.bind(c);
  c.query = (...args: unknown[]) => {
    const at = args.length - 1;
    if (typeof args[at] !== 'function') return query(...args);
    const callback = args[at] as Callback;
    let done = false;
    const timer = setTimeout(() => {
      done = true;
      callback(cut(`the database did not answer a statement within ${ms} ms`));
      c.destroy();
    }, ms);
    args[at] = (...result: unknown[]) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      callback(...result);
    };
    return query(...args);
  };
  return c;
}
