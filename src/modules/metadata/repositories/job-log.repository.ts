import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { HandlerLogLevel } from '../entities/index.js';
import type { Tx } from '../unit-of-work/unit-of-work.js';
import { marks, runStatement, STATEMENT_ROWS } from './raw-statement.js';
import { deleteByIds, deleteOfInstances } from './retention-rows.js';

/** A handler log line to insert (`at` epoch ms UTC). */
export interface NewLogLine {
  namespace: string;
  instanceId: string;
  attempt: number;
  nodeId: string;
  at: number;
  level: HandlerLogLevel;
  line: string;
}

/** A stored line as the logs API pages it (`id` as a number: ids stay far below 2^53). */
export interface StoredLogLine {
  id: number;
  attempt: number;
  nodeId: string;
  at: number;
  level: HandlerLogLevel;
  line: string;
}

/** UTF-8 bytes of line text one INSERT carries at most (well under MySQL's max_allowed_packet). */
const STATEMENT_BYTES = 1_048_576;

/** job_log (docs/long-tasks.md "Handler logs"): the writes of the handler log flusher and the logs API's reads. */
@Injectable()
export class JobLogRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Inserts `lines` in order (ids ascend in that order), in multi-row statements inside `em`. */
  async insert(em: Tx, lines: NewLogLine[]): Promise<void> {
    let i = 0;
    while (i < lines.length) {
      const part: NewLogLine[] = [];
      let bytes = 0;
      while (i < lines.length && part.length < STATEMENT_ROWS && (part.length === 0 || bytes < STATEMENT_BYTES)) {
        bytes += Buffer.byteLength(lines[i].line, 'utf8');
        part.push(lines[i++]);
      }
      const values = part.map(() => `(${marks(7)})`).join(', ');
      const params = part.flatMap((l) => [l.namespace, l.instanceId, l.attempt, l.nodeId, l.at, l.level, l.line]);
      const sql = `INSERT INTO job_log (namespace, instance_id, attempt, node_id, at, level, line) VALUES ${values}`;
      await runStatement(this.ds, em, sql, params);
    }
  }

  /** Ids of the `n` oldest lines of one attempt with an id above `afterId`, oldest first. */
  async oldestIds(em: Tx, instanceId: string, attempt: number, afterId: number, n: number): Promise<number[]> {
    const sql = 'SELECT id FROM job_log WHERE instance_id = ? AND attempt = ? AND id > ? ORDER BY id LIMIT ?';
    const res = await runStatement(this.ds, em, sql, [instanceId, attempt, afterId, n]);
    return ((res.records ?? []) as Array<{ id: number | string }>).map((r) => Number(r.id));
  }

  /** The newest line id of one attempt, 0 when it has none. */
  async lastId(em: Tx, instanceId: string, attempt: number): Promise<number> {
    const sql = 'SELECT MAX(id) AS id FROM job_log WHERE instance_id = ? AND attempt = ?';
    const res = await runStatement(this.ds, em, sql, [instanceId, attempt]);
    return Number((res.records?.[0] as { id: number | string | null } | undefined)?.id ?? 0);
  }

  /** Rewrites line `id` (the drop marker). @returns whether the row still exists. */
  async rewrite(em: Tx, id: number, level: HandlerLogLevel, line: string): Promise<boolean> {
    const res = await runStatement(this.ds, em, 'UPDATE job_log SET level = ?, line = ? WHERE id = ?', [
      level,
      line,
      id,
    ]);
    return (res.affected ?? 0) > 0;
  }

  /** Deletes lines by id (at most STATEMENT_ROWS per statement). @returns rows removed. */
  async deleteIds(em: Tx | undefined, ids: number[]): Promise<number> {
    let removed = 0;
    for (let i = 0; i < ids.length; i += STATEMENT_ROWS) {
      const part = ids.slice(i, i + STATEMENT_ROWS);
      const res = await runStatement(this.ds, em, `DELETE FROM job_log WHERE id IN (${marks(part.length)})`, part);
      removed += res.affected ?? 0;
    }
    return removed;
  }

  /**
   * One page of an instance's lines in id order after `after` (0: from the first), at most `limit`, only of
   * `attempt` when given.
   */
  async page(instanceId: string, after: number, limit: number, attempt?: number): Promise<StoredLogLine[]> {
    const byAttempt = attempt === undefined ? '' : ' AND attempt = ?';
    const sql =
      'SELECT id, attempt, node_id, at, level, line FROM job_log WHERE instance_id = ? AND id > ?' +
      `${byAttempt} ORDER BY id LIMIT ?`;
    const params = [instanceId, after, ...(attempt === undefined ? [] : [attempt]), limit];
    const rows = (await this.ds.query(sql, params)) as Array<Record<string, unknown>>;
    return rows.map((r) => ({
      id: Number(r.id),
      attempt: Number(r.attempt),
      nodeId: String(r.node_id),
      at: Number(r.at),
      level: r.level as HandlerLogLevel,
      line: String(r.line),
    }));
  }

  /** Ids of up to `batch` log lines of `namespace` logged before `before` (epoch ms), oldest first. */
  async idsBefore(namespace: string, before: number, batch: number): Promise<number[]> {
    const sql = 'SELECT id FROM job_log WHERE at < ? AND namespace = ? ORDER BY at LIMIT ?';
    const rows = (await this.ds.query(sql, [before, namespace, batch])) as Array<{ id: number | string }>;
    return rows.map((r) => Number(r.id));
  }

  /** Retention: deletes log lines by id, at most `batch` per statement. @returns rows removed. */
  removeByIds(ids: number[], batch: number): Promise<number> {
    return deleteByIds(this.ds, ids, batch, (n) => `DELETE FROM job_log WHERE id IN (${marks(n)})`);
  }

  /** Retention: deletes the lines of instances `instanceIds`, `batch` at a time. @returns rows removed. */
  removeOfInstances(instanceIds: string[], batch: number): Promise<number> {
    return deleteOfInstances(this.ds, 'job_log', instanceIds, batch);
  }
}
