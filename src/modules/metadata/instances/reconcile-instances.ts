import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, LessThan, LessThanOrEqual } from 'typeorm';
import { JobInstance } from '../entities/job-instance.entity.js';
import { JobInstanceStatus as S } from '../state-machine/job-instance-status.js';
import { InstanceTable } from './instance-table.js';

/** The reconciler's scans of job_instance (docs/dispatch.md "Reconciler"), each bounded and per namespace. */
@Injectable()
export class ReconcileInstances {
  private readonly t: InstanceTable;

  constructor(@InjectDataSource() ds: DataSource) {
    this.t = InstanceTable.of(ds);
  }

  /** PENDING rows due at or before `now`, oldest first. */
  findPendingDue(namespace: string, now: number, limit: number): Promise<JobInstance[]> {
    return this.t.repo.find({
      where: { namespace, status: S.PENDING, dueAt: LessThanOrEqual(now) },
      order: { dueAt: 'ASC' },
      take: limit,
    });
  }

  /** RUNNING rows whose lease ended before `now` (the backstop of docs/execution.md). */
  findExpiredLeases(namespace: string, now: number, limit: number): Promise<JobInstance[]> {
    return this.t.repo.find({ where: { namespace, status: S.RUNNING, leaseUntil: LessThan(now) }, take: limit });
  }

  /** The lost-push candidates: DISPATCHED rows dispatched before `before` (id, node, time only). */
  findDispatchedRefsBefore(
    namespace: string,
    before: number,
    limit: number,
  ): Promise<Array<Pick<JobInstance, 'id' | 'nodeId' | 'dispatchedAt'>>> {
    return this.t.repo.find({
      select: { id: true, nodeId: true, dispatchedAt: true },
      where: { namespace, status: S.DISPATCHED, dispatchedAt: LessThan(before) },
      take: limit,
    });
  }

  /** Distinct node ids holding DISPATCHED or RUNNING rows in `namespace`. */
  async nodesWithWork(namespace: string): Promise<string[]> {
    const rows = await this.t.repo
      .createQueryBuilder('i')
      .select('DISTINCT i.node_id', 'nodeId')
      .where('i.namespace = :namespace AND i.status IN (:...s)', { namespace, s: [S.DISPATCHED, S.RUNNING] })
      .getRawMany<{ nodeId: string | null }>();
    return rows.map((r) => r.nodeId).filter((n): n is string => !!n);
  }

  /** Job ids that have WAITING instances, at most `limit`, in id order after `afterJobId` (keyset paging). */
  async jobsWithWaiting(namespace: string, limit: number, afterJobId = ''): Promise<string[]> {
    const rows = await this.t.repo
      .createQueryBuilder('i')
      .select('DISTINCT i.job_id', 'jobId')
      .where('i.namespace = :namespace AND i.status = :s AND i.job_id > :after', {
        namespace,
        s: S.WAITING,
        after: afterJobId,
      })
      .orderBy('i.job_id', 'ASC')
      .limit(limit)
      .getRawMany<{ jobId: string | null }>();
    return rows.map((r) => r.jobId).filter((j): j is string => !!j);
  }
}
