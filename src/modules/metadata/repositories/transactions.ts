import { DataSource, EntityManager } from 'typeorm';

/** The last SQLite transaction begun on each DataSource (the tail of its queue). */
const sqliteTails = new WeakMap<DataSource, Promise<unknown>>();

/**
 * Runs `fn` in one transaction of `ds`. MySQL: at READ COMMITTED when `readCommitted` (a job edit's range
 * DELETE of staged fires then locks only the rows it removes), else the server's default.
 *
 * SQLite: one transaction at a time per DataSource, whoever begins it. TypeORM's better-sqlite3 driver shares
 * one connection, so a second transaction begun while one is open would become a SAVEPOINT inside it (and roll
 * back with it). Every repository that opens a transaction goes through here, so job edits, firing pages,
 * audited cancels and client changes never interleave.
 */
export function runTransaction<T>(ds: DataSource, fn: (em: EntityManager) => Promise<T>, readCommitted = false): Promise<T> {
  if (ds.options.type === 'mysql') return readCommitted ? ds.transaction('READ COMMITTED', fn) : ds.transaction(fn);
  const tail = sqliteTails.get(ds) ?? Promise.resolve();
  const run = tail.then(() => ds.transaction(fn), () => ds.transaction(fn));
  sqliteTails.set(ds, run.catch(() => undefined));
  return run;
}
