import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { JobInstance } from '../entities/job-instance.entity.js';
import { withDbRetry } from '../repositories/db-errors.js';
import { marks } from '../repositories/raw-statement.js';
import { JobInstanceStatus as S } from '../state-machine/job-instance-status.js';
import { InstanceTable } from './instance-table.js';
import { StagedKind, statusChange } from './staged.js';

/** Dispatch's writes of job_instance (docs/dispatch.md): the PENDING→DISPATCHED write, staging, release. */
@Injectable()
export class DispatchLedger {
  private readonly t: InstanceTable;

  constructor(@InjectDataSource() ds: DataSource) {
    this.t = InstanceTable.of(ds);
  }

  /**
   * PENDING→DISPATCHED to `nodeId` of the rows still PENDING and due (a retry in its backoff is never sent early),
   * one UPDATE per 1,000; a deadlock is retried for 30 ms. @returns the ids this call dispatched.
   */
  async dispatchMany(ids: string[], nodeId: string, now: number): Promise<Set<string>> {
    const change = statusChange(S.PENDING, S.DISPATCHED);
    const won = new Set<string>();
    for (let i = 0; i < ids.length; i += 1000) {
      const part = ids.slice(i, i + 1000);
      const res = await withDbRetry(
        () =>
          this.t.repo
            .createQueryBuilder()
            .update(JobInstance)
            .set({ ...change, nodeId, dispatchedAt: now, updatedAt: now })
            .where('id IN (:...ids) AND status = :s AND due_at <= :now', { ids: part, s: S.PENDING, now })
            .execute(),
        30,
      );
      if (res.affected === part.length) {
        for (const id of part) won.add(id);
        continue;
      }
      const rows = await this.t.repo.find({
        select: { id: true },
        where: { id: In(part), status: S.DISPATCHED, nodeId, dispatchedAt: now },
      });
      for (const r of rows) won.add(r.id);
    }
    return won;
  }

  /**
   * The pump's staging write (docs/dispatch.md "Delayed tasks"): PENDING→DISPATCHED to `nodeId`, staged DELAYED (a
   * handed-back fire stays FIRE), `dispatched_at` = `due_at`, only while PENDING and still due after `now` (epoch
   * ms), one UPDATE per 1,000; a deadlock is retried for 30 ms. Nothing is pushed: the leader pushes the ids at their
   * due time. @returns the ids this call staged.
   */
  async stageMany(ids: string[], nodeId: string, now: number): Promise<Set<string>> {
    const change = statusChange(S.PENDING, S.DISPATCHED, StagedKind.DELAYED);
    const won = new Set<string>();
    for (let i = 0; i < ids.length; i += 1000) {
      const part = ids.slice(i, i + 1000);
      const res = await withDbRetry(
        () =>
          this.t.run(
            undefined,
            `UPDATE job_instance SET status = ?, staged = COALESCE(staged, ?), node_id = ?, dispatched_at = due_at,
               updated_at = ?
             WHERE id IN (${marks(part.length)}) AND status = ? AND due_at > ?`,
            [change.status, change.staged, nodeId, now, ...part, S.PENDING, now],
          ),
        30,
      );
      if (res.affected === part.length) {
        for (const id of part) won.add(id);
        continue;
      }
      const back = await this.t.run(
        undefined,
        `SELECT id FROM job_instance WHERE id IN (${marks(part.length)}) AND status = ? AND node_id = ?
           AND staged IS NOT NULL AND updated_at = ?`,
        [...part, S.DISPATCHED, nodeId, now],
      );
      for (const r of (back.records ?? []) as Array<{ id: string }>) won.add(r.id);
    }
    return won;
  }

  /**
   * Clears the staged mark of due rows whose dispatch found no node: their release happened (they wait, PENDING,
   * for an executor), one UPDATE per 1,000. No status changes.
   */
  async clearStaged(ids: string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += 1000) {
      const part = ids.slice(i, i + 1000);
      await this.t.run(
        undefined,
        `UPDATE job_instance SET staged = NULL WHERE id IN (${marks(part.length)}) AND staged IS NOT NULL`,
        part,
      );
    }
  }
}
