import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { STATEMENT_ROWS } from './raw-statement.js';

/** A shard's placement state: SETTLED on its owner, MARKED for a move to `targetNodeId`, MOVED there this reshard. */
export type ShardState = 'SETTLED' | 'MARKED' | 'MOVED';

/** One job_shard_assignment row; times epoch ms UTC. */
export interface ShardAssignment {
  shardIndex: number;
  nodeId: string;
  targetNodeId: string | null;
  state: ShardState;
  movedAt: number | null;
  movedFire: number | null;
}

/** A job's resharding progress as the job view shows it: shards in all, MARKED ones, MOVED ones. */
export interface ReshardProgress {
  total: number;
  pending: number;
  moved: number;
}

const STATES: ReadonlySet<string> = new Set(['SETTLED', 'MARKED', 'MOVED']);

/**
 * job_shard_assignment I/O (docs/data-model.md): the node each shard of a SHARDING_BROADCAST job runs on. Writers
 * hold the job row's lock ({@link lockJob}) for the whole unit of work, so one job's rows change one writer at a time.
 */
@Injectable()
export class ShardAssignmentRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Locks job `jobId`'s row to the end of `em`'s unit (MySQL FOR UPDATE; SQLite runs one unit at a time). */
  async lockJob(em: EntityManager, jobId: string): Promise<void> {
    const lock = em.connection.options.type === 'mysql' ? ' FOR UPDATE' : '';
    await em.query(`SELECT id FROM job_definition WHERE id = ?${lock}`, [jobId]);
  }

  /** Job `jobId`'s rows; a row with an unknown state reads as MARKED-less SETTLED (a bad row never stops routing). */
  async ofJob(em: EntityManager, jobId: string): Promise<ShardAssignment[]> {
    const rows: Array<Record<string, unknown>> = await em.query(
      'SELECT shard_index, node_id, target_node_id, state, moved_at, moved_fire FROM job_shard_assignment ' +
        'WHERE job_id = ? ORDER BY shard_index',
      [jobId],
    );
    return rows.map((r) => {
      const target = r.target_node_id === null ? null : String(r.target_node_id);
      const state = STATES.has(String(r.state)) ? (String(r.state) as ShardState) : 'SETTLED';
      return {
        shardIndex: Number(r.shard_index),
        nodeId: String(r.node_id),
        targetNodeId: state === 'MARKED' ? target : null,
        state: state === 'MARKED' && target === null ? 'SETTLED' : state,
        movedAt: r.moved_at === null ? null : Number(r.moved_at),
        movedFire: r.moved_fire === null ? null : Number(r.moved_fire),
      };
    });
  }

  /** Inserts or overwrites `rows` of job `jobId` as they are, at `now` (ms). */
  async save(em: EntityManager, jobId: string, rows: ShardAssignment[], now: number): Promise<void> {
    for (let i = 0; i < rows.length; i += STATEMENT_ROWS) {
      const part = rows.slice(i, i + STATEMENT_ROWS);
      const indexes = part.map((r) => r.shardIndex);
      await em.query(
        `DELETE FROM job_shard_assignment WHERE job_id = ? AND shard_index IN (${indexes.map(() => '?').join(',')})`,
        [jobId, ...indexes],
      );
      await em.query(
        'INSERT INTO job_shard_assignment (job_id, shard_index, node_id, target_node_id, state, moved_at, ' +
          `moved_fire, updated_at) VALUES ${part.map(() => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        part.flatMap((r) => [jobId, r.shardIndex, r.nodeId, r.targetNodeId, r.state, r.movedAt, r.movedFire, now]),
      );
    }
  }

  /** Drops job `jobId`'s shards from `shardTotal` up (the job shrank). */
  async dropFrom(em: EntityManager, jobId: string, shardTotal: number): Promise<void> {
    await em.query('DELETE FROM job_shard_assignment WHERE job_id = ? AND shard_index >= ?', [jobId, shardTotal]);
  }

  /** Deletes job `jobId`'s rows (the job is deleted in `em`'s unit). */
  async deleteJob(em: EntityManager, jobId: string): Promise<void> {
    await em.query('DELETE FROM job_shard_assignment WHERE job_id = ?', [jobId]);
  }

  /** The progress of each of `jobIds` that has rows, below its `shardTotal` (one statement per page of jobs). */
  async progressOf(jobIds: string[]): Promise<Map<string, ReshardProgress>> {
    const out = new Map<string, ReshardProgress>();
    for (let i = 0; i < jobIds.length; i += STATEMENT_ROWS) {
      const part = jobIds.slice(i, i + STATEMENT_ROWS);
      const rows: Array<Record<string, unknown>> = await this.ds.query(
        "SELECT job_id, COUNT(*) AS total, SUM(CASE WHEN state = 'MARKED' THEN 1 ELSE 0 END) AS pending, " +
          "SUM(CASE WHEN state = 'MOVED' THEN 1 ELSE 0 END) AS moved FROM job_shard_assignment " +
          `WHERE job_id IN (${part.map(() => '?').join(',')}) GROUP BY job_id`,
        part,
      );
      for (const r of rows)
        out.set(String(r.job_id), { total: Number(r.total), pending: Number(r.pending), moved: Number(r.moved) });
    }
    return out;
  }
}
