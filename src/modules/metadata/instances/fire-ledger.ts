import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, MoreThan, QueryDeepPartialEntity } from 'typeorm';
import { TriggerSource } from '../entities/enums.js';
import { JobInstance } from '../entities/job-instance.entity.js';
import { JobInstanceStatus as S } from '../state-machine/job-instance-status.js';
import { InstanceTable, UNFINISHED } from './instance-table.js';
import { StagedKind, stagedWhere, statusChange } from './staged.js';
import { marks, STATEMENT_ROWS } from '../repositories/raw-statement.js';

/**
 * The fire ledger's job_instance I/O (docs/trigger.md "Firing"): the rows of a firing page, trigger-now or backfill
 * inside the caller's transaction, the overlap policies' reads, and unstage. Rows a firing page writes ahead of their
 * fire time carry the staged mark (instances/staged.ts).
 */
@Injectable()
export class FireLedger {
  private readonly t: InstanceTable;

  constructor(@InjectDataSource() ds: DataSource) {
    this.t = InstanceTable.of(ds);
  }

  /** INSERT IGNORE of new rows inside `em` (the unique fire key makes a second fire a no-op). @returns rows written. */
  insertIgnore(em: EntityManager, rows: JobInstance[]): Promise<number> {
    return this.t.insertIgnore(em, rows);
  }

  /** Which of `ids` exist inside `em`: which rows an INSERT IGNORE really wrote. */
  existingIds(em: EntityManager, ids: string[]): Promise<Set<string>> {
    return this.t.existingIds(em, ids);
  }

  /**
   * Unfinished instances of the jobs, oldest fire first, inside `em`; with `now`, also cancelled ones still
   * stopping then (their stop grace, docs/admission.md), which the overlap policies count as running.
   */
  async unfinishedOfJobs(em: EntityManager, jobIds: string[], now?: number): Promise<Map<string, JobInstance[]>> {
    const out = new Map<string, JobInstance[]>();
    if (jobIds.length === 0) return out;
    const where = [
      { jobId: In(jobIds), status: In([...UNFINISHED]) },
      ...(now === undefined ? [] : [{ jobId: In(jobIds), status: S.CANCELLED, leaseUntil: MoreThan(now) }]),
    ];
    const rows = await em.getRepository(JobInstance).find({ where, order: { fireTime: 'ASC' } });
    for (const r of rows) out.set(r.jobId as string, [...(out.get(r.jobId as string) ?? []), r]);
    return out;
  }

  /** The latest fire time the schedule made for a job (SCHEDULE or MISFIRE run rows), or null: its lastFireTime. */
  async latestScheduledFire(em: EntityManager, jobId: string): Promise<number | null> {
    const rows: Array<{ t: string | number | null }> = await em.query(
      `SELECT MAX(fire_time) AS t FROM job_instance WHERE job_id = ? AND (trigger_source = ?
         OR (trigger_source = ? AND status <> ?))`,
      [jobId, TriggerSource.SCHEDULE, TriggerSource.MISFIRE, S.CANCELLED],
    );
    const t = rows[0]?.t;
    return t === null || t === undefined ? null : Number(t);
  }

  /**
   * Which of `fireTimes` (ms) of job `jobId` already hold every shard below `shardTotal`: the fires a backfill
   * would leave alone (its dry run). Read on uq_job_instance_fire (job_id, fire_time, shard_index), no lock.
   */
  async filledFires(jobId: string, fireTimes: number[], shardTotal: number): Promise<Set<number>> {
    const out = new Set<number>();
    for (let i = 0; i < fireTimes.length; i += STATEMENT_ROWS) {
      const part = fireTimes.slice(i, i + STATEMENT_ROWS);
      const res = await this.t.run(
        undefined,
        'SELECT fire_time AS t, COUNT(*) AS n FROM job_instance WHERE job_id = ? AND shard_index < ?' +
          ` AND fire_time IN (${marks(part.length)}) GROUP BY fire_time`,
        [jobId, shardTotal, ...part],
      );
      for (const r of (res.records ?? []) as Array<{ t: unknown; n: unknown }>)
        if (Number(r.n) >= shardTotal) out.add(Number(r.t));
    }
    return out;
  }

  /**
   * Deletes inside `em` a job's staged fires whose time is after `afterMs` (epoch ms), freeing their fire keys: every
   * fire not yet released (one handed back unreleased stays staged). @returns how many, and the earliest fire time.
   */
  async deleteStagedFires(
    em: EntityManager,
    jobId: string,
    afterMs: number,
  ): Promise<{ removed: number; earliest: number | null }> {
    const staged = stagedWhere('', StagedKind.FIRE);
    const where = `job_id = ? AND ${staged.sql} AND fire_time > ?`;
    const params = [jobId, ...staged.params, afterMs];
    const first = await this.t.run(em, `SELECT MIN(fire_time) AS t FROM job_instance WHERE ${where}`, params);
    const earliest = (first.records?.[0] as { t?: string | number | null } | undefined)?.t ?? null;
    if (earliest === null) return { removed: 0, earliest: null };
    const res = await this.t.run(em, `DELETE FROM job_instance WHERE ${where}`, params);
    return { removed: res.affected ?? 0, earliest: Number(earliest) };
  }

  /** Job `jobId`'s WAITING SCHEDULE/MISFIRE rows fired before `before` (ms), newest first, locked in `em` (MySQL). */
  queuedScheduled(em: EntityManager, jobId: string, before: number, limit: number): Promise<JobInstance[]> {
    const qb = em
      .getRepository(JobInstance)
      .createQueryBuilder('i')
      .where('i.job_id = :jobId AND i.status = :s AND i.fire_time < :before', { jobId, s: S.WAITING, before })
      .andWhere('i.trigger_source IN (:...src)', { src: [TriggerSource.SCHEDULE, TriggerSource.MISFIRE] })
      .orderBy('i.fire_time', 'DESC')
      .limit(limit);
    if (em.connection.options.type === 'mysql') qb.setLock('pessimistic_write');
    return qb.getMany();
  }

  /** Writes the WAITING rows `ids` (locked by the caller) CANCELLED at `now` with `error`, inside `em`. */
  async cancelQueued(em: EntityManager, ids: string[], error: string, now: number): Promise<void> {
    if (ids.length === 0) return;
    const set = { ...statusChange(S.WAITING, S.CANCELLED, null), finishedAt: now, error, updatedAt: now };
    await em
      .getRepository(JobInstance)
      .createQueryBuilder()
      .update(JobInstance)
      .set(set as QueryDeepPartialEntity<JobInstance>)
      .where('id IN (:...ids) AND status = :s', { ids, s: S.WAITING })
      .execute();
  }
}
