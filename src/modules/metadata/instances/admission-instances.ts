import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, LessThanOrEqual, MoreThan } from 'typeorm';
import { TriggerSource } from '../entities/enums.js';
import { JobInstance } from '../entities/job-instance.entity.js';
import { JobInstanceStatus as S } from '../state-machine/job-instance-status.js';
import { InstanceTable } from './instance-table.js';

/** A DISPATCHED or RUNNING instance of a limited job: it holds one slot of its job's semaphore. */
export type SlotHolderRow = Pick<
  JobInstance,
  'id' | 'jobId' | 'status' | 'maxConcurrency' | 'timeoutMs' | 'timeoutMode'
>;

/**
 * Admission's job_instance reads (docs/admission.md): slot holders, WAITING turns, the stop grace. Its status
 * writes go through InstanceTransitions.
 */
@Injectable()
export class AdmissionInstances {
  private readonly t: InstanceTable;

  constructor(@InjectDataSource() ds: DataSource) {
    this.t = InstanceTable.of(ds);
  }

  /**
   * How many instances of job `jobId` are in `statuses`, or PENDING with due_at <= `pendingDueBy` (when not null),
   * or CANCELLED with lease_until after `cancelledLeaseAfter` (epoch ms).
   */
  countOfJob(jobId: string, statuses: S[], pendingDueBy: number | null, cancelledLeaseAfter: number): Promise<number> {
    const due = pendingDueBy === null ? [] : [{ jobId, status: S.PENDING, dueAt: LessThanOrEqual(pendingDueBy) }];
    const cancelled = { jobId, status: S.CANCELLED, leaseUntil: MoreThan(cancelledLeaseAfter) };
    return this.t.repo.count({ where: [{ jobId, status: In(statuses) }, ...due, cancelled] });
  }

  /** The oldest WAITING instance (by fire time) of job `jobId`, of `sources` only when given, or null. */
  findOldestWaiting(jobId: string, sources?: readonly TriggerSource[]): Promise<JobInstance | null> {
    const source = sources ? { triggerSource: In([...sources]) } : {};
    return this.t.repo.findOne({ where: { jobId, status: S.WAITING, ...source }, order: { fireTime: 'ASC' } });
  }

  /** Whether instance `id` is CANCELLED at attempt `fencingToken` (cancelled while that attempt ran). */
  isCancelledAt(id: string, fencingToken: number): Promise<boolean> {
    return this.t.repo.exists({ where: { id, status: S.CANCELLED, fencingToken } });
  }

  /** Clears lease_until of a CANCELLED row cancelled at attempt `fencingToken` (the stop grace's end). */
  async clearCancelledLease(id: string, fencingToken: number): Promise<void> {
    await this.t.repo
      .createQueryBuilder()
      .update(JobInstance)
      .set({ leaseUntil: null })
      .where('id = :id AND status = :s AND fencing_token = :t', { id, s: S.CANCELLED, t: fencingToken })
      .execute();
  }

  /** Instance `id`'s lease_until (a CANCELLED row's stop grace; null once ended), or undefined when it is gone. */
  async leaseUntilOf(id: string): Promise<number | null | undefined> {
    const row = await this.t.repo.findOne({ select: { id: true, leaseUntil: true }, where: { id } });
    return row ? row.leaseUntil : undefined;
  }

  /** CANCELLED instances of `jobIds` whose lease_until (their stop grace) lies after `now` (epoch ms). */
  findStopping(jobIds: string[], now: number): Promise<Array<Pick<JobInstance, 'id' | 'jobId' | 'leaseUntil'>>> {
    if (jobIds.length === 0) return Promise.resolve([]);
    return this.t.repo.find({
      select: { id: true, jobId: true, leaseUntil: true },
      where: { jobId: In(jobIds), status: S.CANCELLED, leaseUntil: MoreThan(now) },
    });
  }

  /** Those of `ids` whose row is now in one of `statuses` (keep `ids` to a page). */
  async idsInStatus(ids: string[], statuses: S[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.t.repo.find({ select: { id: true }, where: { id: In(ids), status: In(statuses) } });
    return new Set(rows.map((r) => r.id));
  }

  /** DISPATCHED/RUNNING rows of limited jobs (of `jobIds`, or all), keyset-paged by id after `afterId`. */
  findSlotHolders(namespace: string, limit: number, jobIds?: string[], afterId = ''): Promise<SlotHolderRow[]> {
    return this.t.repo.find({
      select: { id: true, jobId: true, status: true, maxConcurrency: true, timeoutMs: true, timeoutMode: true },
      where: {
        namespace,
        status: In([S.DISPATCHED, S.RUNNING]),
        maxConcurrency: MoreThan(0),
        ...(jobIds ? { jobId: In(jobIds) } : {}),
        ...(afterId ? { id: MoreThan(afterId) } : {}),
      },
      order: { id: 'ASC' },
      take: limit,
    });
  }
}
