import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource, EntityManager } from 'typeorm';
import { isLockConflict, withDbRetry } from '../repositories/db-errors.js';

/** The transaction handle a unit of work hands to repositories (opaque to other modules). */
export type Tx = EntityManager;

/**
 * `isolation`: MySQL only (SQLite is serializable). `retryMs`: rerun after transient errors (withDbRetry).
 * `lockRetries`: rerun up to that many times after a deadlock or lock-wait timeout only (InnoDB rolled the whole
 * unit back, so a rerun cannot double a write; a lost connection is not retried: its commit may have happened).
 */
export interface UnitOfWorkOptions {
  isolation?: 'READ COMMITTED';
  retryMs?: number;
  lockRetries?: number;
}

interface Open {
  ds: DataSource;
  tx: Tx;
  open: boolean;
}

const current = new AsyncLocalStorage<Open>();
const perDataSource = new WeakMap<DataSource, UnitOfWork>();

/**
 * The one way to run writes that must commit together, the same on MySQL and SQLite:
 * - atomic: the writes through `fn`'s `tx` commit when `fn` resolves, roll back when it throws (rethrown);
 * - isolation: MySQL at the server default (REPEATABLE READ) or `isolation`, one pooled connection per unit;
 *   SQLite has one connection, so a DataSource's units run one at a time (serializable), and a statement
 *   outside any unit that runs meanwhile lands in the open one;
 * - nesting: `run` inside an open `fn` (same async context and DataSource) joins it: no savepoint, options
 *   ignored; a run begun after its creator ended is its own;
 * - retry: only with `retryMs`, rerunning the whole `fn` in a new transaction (so it must be safe to repeat).
 */
export class UnitOfWork {
  /** SQLite: the tail of the queue of units. */
  private tail: Promise<unknown> = Promise.resolve();

  private constructor(private readonly ds: DataSource) {}

  /** The unit of work of `ds` (one per DataSource: SQLite's queue must be shared by every caller). */
  static for(ds: DataSource): UnitOfWork {
    let uow = perDataSource.get(ds);
    if (!uow) perDataSource.set(ds, (uow = new UnitOfWork(ds)));
    return uow;
  }

  /** Runs `fn` in one transaction; @returns what `fn` returns. @throws what `fn` or the database threw. */
  run<T>(fn: (tx: Tx) => Promise<T>, options: UnitOfWorkOptions = {}): Promise<T> {
    const outer = current.getStore();
    if (outer?.open && outer.ds === this.ds) return fn(outer.tx);
    const once = (): Promise<T> => this.begin(fn, options.isolation);
    if (options.lockRetries !== undefined) return retryLockConflicts(once, options.lockRetries);
    return options.retryMs === undefined ? once() : withDbRetry(once, options.retryMs);
  }

  private begin<T>(fn: (tx: Tx) => Promise<T>, isolation: UnitOfWorkOptions['isolation']): Promise<T> {
    const body = (tx: Tx): Promise<T> => {
      const state: Open = { ds: this.ds, tx, open: true };
      return current
        .run(state, () => fn(tx))
        .finally(() => {
          state.open = false;
        });
    };
    if (this.ds.options.type === 'mysql') {
      return isolation ? this.ds.transaction(isolation, body) : this.ds.transaction(body);
    }
    const run = this.tail.then(
      () => this.ds.transaction(body),
      () => this.ds.transaction(body),
    );
    this.tail = run.catch(() => undefined);
    return run;
  }
}

/** Runs `once`, again after each deadlock or lock-wait timeout, at most `retries` more times. */
async function retryLockConflicts<T>(once: () => Promise<T>, retries: number): Promise<T> {
  for (let left = retries; ; left--) {
    try {
      return await once();
    } catch (err) {
      if (left <= 0 || !isLockConflict(err)) throw err;
    }
  }
}
