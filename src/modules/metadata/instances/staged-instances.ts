import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { marks } from '../repositories/raw-statement.js';
import { JobInstanceStatus } from '../state-machine/job-instance-status.js';
import { InstanceTable } from './instance-table.js';
import { StagedKind, stagedWhere } from './staged.js';

/** A staged row as a new leader adopts it: released at `dueAt` (epoch ms), onto `nodeId`'s queue when routed. */
export interface StagedRef {
  id: string;
  appId: string;
  nodeId: string | null;
  dueAt: number;
  priority: number;
  staged: StagedKind;
}

/** A staged fire the takeback looks at (docs/trigger.md "Staging"). */
export interface UnreleasedFire {
  id: string;
  jobId: string;
  status: JobInstanceStatus;
  nodeId: string | null;
  fireTime: number;
}

/** The leader's reads and deletes of staged rows (instances/staged.ts): adoption and the takeback. */
@Injectable()
export class StagedInstances {
  private readonly t: InstanceTable;

  constructor(@InjectDataSource() ds: DataSource) {
    this.t = InstanceTable.of(ds);
  }

  /**
   * Staged rows of both kinds due after `after`, keyset-paged by (due_at, id) (thousands share one instant), for a
   * new leader to release at their due time.
   */
  async findStaged(namespace: string, after: { dueAt: number; id: string }, limit: number): Promise<StagedRef[]> {
    const staged = stagedWhere('');
    const res = await this.t.run(
      undefined,
      `SELECT id, app_id, node_id, due_at, priority, staged FROM job_instance WHERE namespace = ? AND ${staged.sql}
         AND (due_at > ? OR (due_at = ? AND id > ?)) ORDER BY due_at, id LIMIT ?`,
      [namespace, ...staged.params, after.dueAt, after.dueAt, after.id, limit],
    );
    return ((res.records ?? []) as Array<Record<string, unknown>>).map((r) => ({
      id: String(r.id),
      appId: String(r.app_id),
      nodeId: r.node_id === null ? null : String(r.node_id),
      dueAt: Number(r.due_at),
      priority: Number(r.priority),
      staged: r.staged as StagedKind,
    }));
  }

  /** Staged fires whose fire time is before `before` (epoch ms), oldest first: the takeback's candidates. */
  async findUnreleasedFires(namespace: string, before: number, limit: number): Promise<UnreleasedFire[]> {
    const staged = stagedWhere('', StagedKind.FIRE);
    const res = await this.t.run(
      undefined,
      `SELECT id, job_id, status, node_id, fire_time FROM job_instance WHERE namespace = ? AND ${staged.sql}
         AND due_at < ? ORDER BY due_at LIMIT ?`,
      [namespace, ...staged.params, before, limit],
    );
    return ((res.records ?? []) as Array<Record<string, unknown>>).map((r) => ({
      id: String(r.id),
      jobId: String(r.job_id),
      status: r.status as JobInstanceStatus,
      nodeId: r.node_id === null ? null : String(r.node_id),
      fireTime: Number(r.fire_time),
    }));
  }

  /**
   * Deletes, inside `em`, those of `ids` still staged fires (no status write touched them since they were read),
   * locking them first on MySQL. @returns the job and fire time of each row removed.
   */
  async deleteUnreleasedFires(em: EntityManager, ids: string[]): Promise<Array<{ jobId: string; fireTime: number }>> {
    if (ids.length === 0) return [];
    const staged = stagedWhere('', StagedKind.FIRE);
    const lock = em.connection.options.type === 'mysql' ? ' FOR UPDATE' : '';
    const found = await this.t.run(
      em,
      `SELECT id, job_id, fire_time FROM job_instance WHERE id IN (${marks(ids.length)}) AND ${staged.sql}${lock}`,
      [...ids, ...staged.params],
    );
    const rows = (found.records ?? []) as Array<Record<string, unknown>>;
    if (rows.length === 0) return [];
    await this.t.run(
      em,
      `DELETE FROM job_instance WHERE id IN (${marks(rows.length)})`,
      rows.map((r) => r.id),
    );
    return rows.map((r) => ({ jobId: String(r.job_id), fireTime: Number(r.fire_time) }));
  }
}
