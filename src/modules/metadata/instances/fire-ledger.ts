import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, MoreThan } from 'typeorm';
import { TriggerSource } from '../entities/enums.js';
import { JobInstance } from '../entities/job-instance.entity.js';
import { JobInstanceStatus as S } from '../state-machine/job-instance-status.js';
import { InstanceTable, UNFINISHED } from './instance-table.js';

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
   * Deletes inside `em` a job's scheduled fires whose time is after `afterMs` and that have not started: staged
   * fires, and those handed back before their time (their mark is gone, they are still future fires). Frees their
   * fire keys. @returns how many, and the earliest fire time removed.
   */
  async deleteFutureFires(
    em: EntityManager,
    jobId: string,
    afterMs: number,
  ): Promise<{ removed: number; earliest: number | null }> {
    const where = {
      jobId,
      triggerSource: TriggerSource.SCHEDULE,
      status: In([S.PENDING, S.DISPATCHED]),
      fireTime: MoreThan(afterMs),
    };
    const repo = em.getRepository(JobInstance);
    const first = await repo.findOne({ select: { id: true, fireTime: true }, where, order: { fireTime: 'ASC' } });
    if (!first) return { removed: 0, earliest: null };
    const res = await repo.delete(where);
    return { removed: res.affected ?? 0, earliest: first.fireTime };
  }
}
