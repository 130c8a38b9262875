import { DataSource } from 'typeorm';
import { marks, runStatement, STATEMENT_ROWS } from './raw-statement.js';

/** The tables retention removes rows from (the label of its metric). */
export type RetentionTable = 'job_instance' | 'job_attempt' | 'job_log' | 'callback_delivery' | 'idempotency_key';

/**
 * Retention's deletes by id (docs/long-tasks.md "Retention"), shared by each table's repository: `ids` in statements
 * of at most `batch` (and STATEMENT_ROWS), each its own short transaction; `sql(n)` is the DELETE for n ids, `extra`
 * its parameters after them. @returns rows removed.
 */
export async function deleteByIds<T>(
  ds: DataSource,
  ids: T[],
  batch: number,
  sql: (n: number) => string,
  extra: unknown[] = [],
): Promise<number> {
  let removed = 0;
  const size = Math.min(batch, STATEMENT_ROWS);
  for (let i = 0; i < ids.length; i += size) {
    const part = ids.slice(i, i + size);
    removed += (await runStatement(ds, undefined, sql(part.length), [...part, ...extra])).affected ?? 0;
  }
  return removed;
}

/**
 * Deletes the rows of `table` that belong to instances `instanceIds`, `batch` at a time (their ids selected, then
 * deleted by id), so no statement holds many locks for long. @returns rows removed.
 */
export async function deleteOfInstances(
  ds: DataSource,
  table: 'job_log' | 'job_attempt',
  instanceIds: string[],
  batch: number,
): Promise<number> {
  let removed = 0;
  for (;;) {
    const sql = `SELECT id FROM ${table} WHERE instance_id IN (${marks(instanceIds.length)}) LIMIT ?`;
    const rows = (await ds.query(sql, [...instanceIds, batch])) as Array<{ id: number | string }>;
    if (rows.length === 0) return removed;
    const found = rows.map((r) => r.id);
    const res = await runStatement(ds, undefined, `DELETE FROM ${table} WHERE id IN (${marks(found.length)})`, found);
    removed += res.affected ?? 0;
    if (rows.length < batch) return removed;
  }
}
