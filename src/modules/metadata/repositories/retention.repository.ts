import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CallbackState } from '../entities/index.js';
import { FINAL_STATUSES } from '../state-machine/job-instance-status.js';
import { marks, runStatement, STATEMENT_ROWS } from './raw-statement.js';

/** The tables retention removes rows from (the label of its metric). */
export type RetentionTable = 'job_instance' | 'job_attempt' | 'job_log' | 'callback_delivery' | 'idempotency_key';

/** The tables of an instance's rows. */
type InstanceTable = Exclude<RetentionTable, 'idempotency_key'>;

const FINAL = [...FINAL_STATUSES];
const SETTLED = [CallbackState.DELIVERED, CallbackState.CALLBACK_FAILED];
const UNSETTLED = [CallbackState.PENDING, CallbackState.RETRYING];

/**
 * The statements of retention (docs/long-tasks.md "Retention"), the same on MySQL and SQLite: ids are selected
 * first (at most `batch`, through an index), then deleted by id in statements of at most `batch` rows, each its
 * own short transaction, so no statement holds many locks for long.
 */
@Injectable()
export class RetentionRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * Up to `batch` instances of `namespace` in a final status whose finished_at (epoch ms) is before `before`,
   * oldest first, leaving out those whose callback delivery is still PENDING or RETRYING.
   */
  async finishedBefore(namespace: string, before: number, batch: number): Promise<string[]> {
    const sql =
      `SELECT i.id FROM job_instance i WHERE i.finished_at < ? AND i.namespace = ? AND i.status IN (${marks(4)})` +
      ' AND NOT EXISTS (SELECT 1 FROM callback_delivery d WHERE d.instance_id = i.id' +
      ` AND d.state IN (${marks(2)})) ORDER BY i.finished_at LIMIT ?`;
    const rows = (await this.ds.query(sql, [before, namespace, ...FINAL, ...UNSETTLED, batch])) as Array<{
      id: string;
    }>;
    return rows.map((r) => r.id);
  }

  /**
   * Removes instances `ids` (from {@link finishedBefore}) with their settled deliveries, log lines and attempts,
   * children first, so a statement that fails leaves the instance for the next pass. An instance whose delivery
   * was made due again meanwhile (a redeliver) stays, with it. @returns rows removed per table.
   */
  async removeInstances(ids: string[], batch: number): Promise<Record<InstanceTable, number>> {
    const removed: Record<InstanceTable, number> = {
      callback_delivery: 0,
      job_log: 0,
      job_attempt: 0,
      job_instance: 0,
    };
    const size = Math.min(batch, STATEMENT_ROWS);
    for (let i = 0; i < ids.length; i += size) {
      const part = ids.slice(i, i + size);
      removed.callback_delivery += await this.affected(
        `DELETE FROM callback_delivery WHERE instance_id IN (${marks(part.length)}) AND state IN (${marks(2)})`,
        [...part, ...SETTLED],
      );
      const kept = (await this.ds.query(
        `SELECT instance_id FROM callback_delivery WHERE instance_id IN (${marks(part.length)})`,
        part,
      )) as Array<{ instance_id: string }>;
      const keep = new Set(kept.map((k) => k.instance_id));
      const gone = part.filter((id) => !keep.has(id));
      if (gone.length === 0) continue;
      removed.job_log += await this.removeChildren('job_log', gone, batch);
      removed.job_attempt += await this.removeChildren('job_attempt', gone, batch);
      removed.job_instance += await this.affected(
        `DELETE FROM job_instance WHERE id IN (${marks(gone.length)}) AND status IN (${marks(4)})` +
          ' AND NOT EXISTS (SELECT 1 FROM callback_delivery d WHERE d.instance_id = job_instance.id)',
        [...gone, ...FINAL],
      );
    }
    return removed;
  }

  /** Ids of up to `batch` log lines of `namespace` logged before `before` (epoch ms). */
  async logsBefore(namespace: string, before: number, batch: number): Promise<number[]> {
    const sql = 'SELECT id FROM job_log WHERE at < ? AND namespace = ? ORDER BY at LIMIT ?';
    const rows = (await this.ds.query(sql, [before, namespace, batch])) as Array<{ id: number | string }>;
    return rows.map((r) => Number(r.id));
  }

  /** Deletes log lines by id, at most `batch` per statement. @returns rows removed. */
  async removeLogs(ids: number[], batch: number): Promise<number> {
    let removed = 0;
    const size = Math.min(batch, STATEMENT_ROWS);
    for (let i = 0; i < ids.length; i += size) {
      const part = ids.slice(i, i + size);
      removed += await this.affected(`DELETE FROM job_log WHERE id IN (${marks(part.length)})`, part);
    }
    return removed;
  }

  /** Ids of up to `batch` Idempotency-Key rows of `namespace` that expired before `before` (epoch ms), oldest first. */
  async idempotencyKeysBefore(namespace: string, before: number, batch: number): Promise<number[]> {
    const sql = 'SELECT id FROM idempotency_key WHERE expires_at < ? AND namespace = ? ORDER BY expires_at LIMIT ?';
    const rows = (await this.ds.query(sql, [before, namespace, batch])) as Array<{ id: number | string }>;
    return rows.map((r) => Number(r.id));
  }

  /**
   * Deletes Idempotency-Key rows by id if they are still expired at `before` (a key taken again meanwhile
   * stays), at most `batch` per statement. @returns rows removed.
   */
  async removeIdempotencyKeys(ids: number[], before: number, batch: number): Promise<number> {
    let removed = 0;
    const size = Math.min(batch, STATEMENT_ROWS);
    for (let i = 0; i < ids.length; i += size) {
      const part = ids.slice(i, i + size);
      const sql = `DELETE FROM idempotency_key WHERE id IN (${marks(part.length)}) AND expires_at < ?`;
      removed += await this.affected(sql, [...part, before]);
    }
    return removed;
  }

  /** Deletes the rows of `table` belonging to instances `ids`, `batch` at a time (ids selected, then deleted). */
  private async removeChildren(table: 'job_log' | 'job_attempt', ids: string[], batch: number): Promise<number> {
    let removed = 0;
    for (;;) {
      const sql = `SELECT id FROM ${table} WHERE instance_id IN (${marks(ids.length)}) LIMIT ?`;
      const rows = (await this.ds.query(sql, [...ids, batch])) as Array<{ id: number | string }>;
      if (rows.length === 0) return removed;
      const found = rows.map((r) => r.id);
      removed += await this.affected(`DELETE FROM ${table} WHERE id IN (${marks(found.length)})`, found);
      if (rows.length < batch) return removed;
    }
  }

  private async affected(sql: string, params: unknown[]): Promise<number> {
    return (await runStatement(this.ds, undefined, sql, params)).affected ?? 0;
  }
}
