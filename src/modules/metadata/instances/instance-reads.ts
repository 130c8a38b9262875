import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { JobInstance } from '../entities/job-instance.entity.js';
import { marks, STATEMENT_ROWS } from '../repositories/raw-statement.js';
import { JobInstanceStatus as S } from '../state-machine/job-instance-status.js';
import { InstanceTable, UNFINISHED } from './instance-table.js';

/** Reads of job_instance rows by id, node, job or app (the read model; no writes). */
@Injectable()
export class InstanceReads {
  private readonly t: InstanceTable;

  constructor(@InjectDataSource() ds: DataSource) {
    this.t = InstanceTable.of(ds);
  }

  /** Instance `id`, or null. */
  findById(id: string): Promise<JobInstance | null> {
    return this.t.repo.findOneBy({ id });
  }

  /** The rows of `ids` that exist, in no particular order. */
  findByIds(ids: string[]): Promise<JobInstance[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.t.repo.findBy({ id: In(ids) });
  }

  /** The rows of `ids` that exist, whole but for the checkpoint text (raw SELECT per STATEMENT_ROWS ids; hot paths). */
  async findMany(ids: string[], em?: EntityManager): Promise<JobInstance[]> {
    const out: JobInstance[] = [];
    for (let i = 0; i < ids.length; i += STATEMENT_ROWS) {
      const part = ids.slice(i, i + STATEMENT_ROWS);
      const sql = `SELECT ${this.t.selected} FROM job_instance WHERE id IN (${marks(part.length)})`;
      out.push(...this.t.hydrate((await this.t.run(em, sql, part)).records));
    }
    return out;
  }

  /** Rows on `nodeId` in any of `statuses`, at most `limit`. */
  findOnNode(nodeId: string, statuses: S[], limit: number): Promise<JobInstance[]> {
    return this.t.repo.find({ where: { nodeId, status: In(statuses) }, take: limit });
  }

  /** How many rows are on `nodeId` in any of `statuses`, from the (node_id, status) index alone. */
  async countOnNode(nodeId: string, statuses: S[]): Promise<number> {
    const res = await this.t.run(
      undefined,
      `SELECT COUNT(*) AS n FROM job_instance WHERE node_id = ? AND status IN (${marks(statuses.length)})`,
      [nodeId, ...statuses],
    );
    return Number((res.records?.[0] as { n?: number | string } | undefined)?.n ?? 0);
  }

  /**
   * Instances of a job, newest fire first then highest shard (unique per job: uq_job_instance_fire, so the
   * order is total and a keyset page is exact): `limit` of them after skipping `offset`, or after `after`.
   */
  listByJob(
    jobId: string,
    offset: number,
    limit: number,
    after?: { fireTime: number; shardIndex: number },
  ): Promise<JobInstance[]> {
    const qb = this.t.repo.createQueryBuilder('i').where('i.jobId = :jobId', { jobId });
    if (after) {
      qb.andWhere('(i.fireTime < :f OR (i.fireTime = :f AND i.shardIndex < :s))', {
        f: after.fireTime,
        s: after.shardIndex,
      });
    }
    return qb.orderBy('i.fireTime', 'DESC').addOrderBy('i.shardIndex', 'DESC').offset(offset).limit(limit).getMany();
  }

  /** How many instances job `jobId` has. */
  countByJob(jobId: string): Promise<number> {
    return this.t.repo.count({ where: { jobId } });
  }

  /** Unfinished instances of app `appId` in every namespace, from the (app_id, status) index alone. */
  async countUnfinishedOfApp(appId: string): Promise<number> {
    const res = await this.t.run(
      undefined,
      `SELECT COUNT(*) AS n FROM job_instance WHERE app_id = ? AND status IN (${marks(UNFINISHED.length)})`,
      [appId, ...UNFINISHED],
    );
    return Number((res.records?.[0] as { n?: number | string } | undefined)?.n ?? 0);
  }
}
