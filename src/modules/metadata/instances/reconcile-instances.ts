import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, LessThan } from 'typeorm';
import { JobInstance } from '../entities/job-instance.entity.js';
import { JobInstanceStatus as S } from '../state-machine/job-instance-status.js';
import { InstanceTable } from './instance-table.js';

/** Due PENDING rows of one app and handler, counted (UnadvertisedWaits): the oldest's created_at, epoch ms. */
export interface PendingGroup {
  appId: string;
  handler: string;
  count: number;
  oldestCreatedAt: number;
}

/** What a grouped scan leaves out: handlers served for every app, and handlers served for one app only. */
export interface ServedHandlers {
  everyApp: readonly string[];
  byApp: ReadonlyMap<string, readonly string[]>;
}

/** The reconciler's scans of job_instance (docs/dispatch.md "Reconciler"), each bounded and per namespace. */
@Injectable()
export class ReconcileInstances {
  private readonly t: InstanceTable;

  constructor(@InjectDataSource() ds: DataSource) {
    this.t = InstanceTable.of(ds);
  }

  /**
   * PENDING rows due at or before `now`, in ready order: `due_at − priority × agingMs` ascending (dispatch's
   * readyRank, docs/dispatch.md "Priorities"), then id; none of `exceptApps` (disabled clients: they wait).
   */
  findPendingDue(
    namespace: string,
    now: number,
    limit: number,
    agingMs: number,
    exceptApps: readonly string[] = [],
  ): Promise<JobInstance[]> {
    const qb = this.t.repo
      .createQueryBuilder('i')
      .addSelect('i.due_at - i.priority * :aging', 'ready_rank')
      .where('i.namespace = :namespace AND i.status = :s AND i.due_at <= :now', { namespace, s: S.PENDING, now })
      .setParameter('aging', agingMs);
    if (exceptApps.length > 0) qb.andWhere('i.app_id NOT IN (:...apps)', { apps: [...exceptApps] });
    return qb.orderBy('ready_rank', 'ASC').addOrderBy('i.id', 'ASC').limit(limit).getMany();
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

  /**
   * Due PENDING rows per (app, handler) whose handler `served` does not name for their app, oldest groups first, at
   * most `limit`: one statement on ix_job_instance_status_fire's `status` prefix.
   */
  async pendingDueByHandler(
    namespace: string,
    now: number,
    served: ServedHandlers,
    limit: number,
  ): Promise<PendingGroup[]> {
    const qb = this.t.repo
      .createQueryBuilder('i')
      .select('i.app_id', 'appId')
      .addSelect('i.handler', 'handler')
      .addSelect('COUNT(*)', 'n')
      .addSelect('MIN(i.created_at)', 'oldest')
      .where('i.status = :s AND i.namespace = :namespace AND i.due_at <= :now', { s: S.PENDING, namespace, now });
    if (served.everyApp.length > 0) qb.andWhere('i.handler NOT IN (:...everyApp)', { everyApp: served.everyApp });
    [...served.byApp].forEach(([appId, handlers], k) => {
      if (handlers.length > 0)
        qb.andWhere(`NOT (i.app_id = :app${k} AND i.handler IN (:...handlers${k}))`, {
          [`app${k}`]: appId,
          [`handlers${k}`]: handlers,
        });
    });
    const rows = await qb
      .groupBy('i.app_id')
      .addGroupBy('i.handler')
      .orderBy('MIN(i.created_at)', 'ASC')
      .addOrderBy('i.app_id', 'ASC')
      .addOrderBy('i.handler', 'ASC')
      .limit(limit)
      .getRawMany<{ appId: string; handler: string; n: string | number; oldest: string | number }>();
    return rows.map((r) => ({
      appId: r.appId,
      handler: r.handler,
      count: Number(r.n),
      oldestCreatedAt: Number(r.oldest),
    }));
  }
}
