import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource, EntityManager } from 'typeorm';
import { withDbRetry } from '../repositories/db-errors.js';

/** The transaction handle a unit of work hands to repositories (opaque to other modules). */
export type Tx = EntityManager;

/** How {@link UnitOfWork.run} runs its function. */
export interface UnitOfWorkOptions {
  /** MySQL only: READ COMMITTED instead of the server default (REPEATABLE READ). SQLite is always serializable. */
  isolation?: 'READ COMMITTED';
  /** Run the whole transaction again after a transient error ({@link withDbRetry}) for up to this many ms. */
  retryMs?: number;
}

/** The unit of work open in this async context, if any. */
interface Open {
  ds: DataSource;
  tx: Tx;
  open: boolean;
}

const current = new AsyncLocalStorage<Open>();
const perDataSource = new WeakMap<DataSource, UnitOfWork>();

/**
 * The one way to run writes that must commit together, with the same semantics on MySQL and SQLite:
 * - atomic: `fn`'s writes through the `tx` it is given commit when `fn` resolves and roll back when it throws
 *   (the error is rethrown);
 * - isolation: MySQL runs at the server default or at `isolation`, each unit on its own pooled connection;
 *   SQLite has one connection (TypeORM's better-sqlite3 driver), so units of one DataSource run one at a time,
 *   which is serializable; a statement outside any unit that runs meanwhile shares that connection;
 * - nesting: `run` called while `fn` is open (same async context, same DataSource) joins the outer
 *   transaction: no savepoint, its writes commit or roll back with the outer ones, its options are ignored;
 * - retry: none unless `retryMs`; then a deadlock, lock wait or lost connection reruns the whole `fn` in a
 *   new transaction, so `fn` must be safe to repeat.
 */
export class UnitOfWork {
  /** SQLite: the last unit begun (the tail of the queue). */
  private tail: Promise<unknown> = Promise.resolve();

  private constructor(private readonly ds: DataSource) {}

  /** The unit of work of `ds` (one per DataSource: SQLite's queue must be shared by every caller). */
  static for(ds: DataSource): UnitOfWork {
    let uow = perDataSource.get(ds);
    if (!uow) perDataSource.set(ds, (uow = new UnitOfWork(ds)));
    return uow;
  }

  /** Runs `fn` in one transaction (see the class comment for what is the same on both databases). */
  run<T>(fn: (tx: Tx) => Promise<T>, options: UnitOfWorkOptions = {}): Promise<T> {
    const outer = current.getStore();
    if (outer?.open && outer.ds === this.ds) return fn(outer.tx);
    const once = (): Promise<T> => this.begin(fn, options.isolation);
    return options.retryMs === undefined ? once() : withDbRetry(once, options.retryMs);
  }

  private begin<T>(fn: (tx: Tx) => Promise<T>, isolation: UnitOfWorkOptions['isolation']): Promise<T> {
    const body = (tx: Tx): Promise<T> => {
      const state: Open = { ds: this.ds, tx, open: true };
      return current.run(state, () => fn(tx)).finally(() => {
        state.open = false;
      });
    };
    if (this.ds.options.type === 'mysql') return isolation ? this.ds.transaction(isolation, body) : this.ds.transaction(body);
    const run = this.tail.then(
      () => this.ds.transaction(body),
      () => this.ds.transaction(body),
    );
    this.tail = run.catch(() => undefined);
    return run;
  }
}
