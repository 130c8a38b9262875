import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CallbackState } from '../entities/callback-delivery.entity.js';
import { marks } from '../repositories/raw-statement.js';
import { FINAL_STATUSES } from '../state-machine/job-instance-status.js';
import { InstanceTable } from './instance-table.js';

const FINAL = [...FINAL_STATUSES];
const UNSETTLED = [CallbackState.PENDING, CallbackState.RETRYING];

/**
 * Retention of finished instances (docs/long-tasks.md "Retention"): ids selected first, through an index, then
 * deleted by id, each statement its own short transaction. An instance with a callback delivery row stays: the
 * caller removes its settled delivery first.
 */
@Injectable()
export class InstanceRetention {
  private readonly t: InstanceTable;

  constructor(@InjectDataSource() ds: DataSource) {
    this.t = InstanceTable.of(ds);
  }

  /**
   * Up to `batch` instances of `namespace` in a final status whose finished_at (epoch ms) is before `before`,
   * oldest first, leaving out those whose callback delivery is still PENDING or RETRYING.
   */
  async finishedBefore(namespace: string, before: number, batch: number): Promise<string[]> {
    const sql =
      `SELECT i.id FROM job_instance i WHERE i.finished_at < ? AND i.namespace = ? AND i.status IN (${marks(4)})` +
      ' AND NOT EXISTS (SELECT 1 FROM callback_delivery d WHERE d.instance_id = i.id' +
      ` AND d.state IN (${marks(2)})) ORDER BY i.finished_at LIMIT ?`;
    const res = await this.t.run(undefined, sql, [before, namespace, ...FINAL, ...UNSETTLED, batch]);
    return ((res.records ?? []) as Array<{ id: string }>).map((r) => r.id);
  }

  /** Deletes those of `ids` still final and without a callback delivery row (one statement). @returns rows removed. */
  async removeFinished(ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const res = await this.t.run(
      undefined,
      `DELETE FROM job_instance WHERE id IN (${marks(ids.length)}) AND status IN (${marks(4)})` +
        ' AND NOT EXISTS (SELECT 1 FROM callback_delivery d WHERE d.instance_id = job_instance.id)',
      [...ids, ...FINAL],
    );
    return res.affected ?? 0;
  }
}
