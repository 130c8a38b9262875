import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, LessThan, LessThanOrEqual, QueryDeepPartialEntity, Repository } from 'typeorm';
import { JobInstance } from '../entities/index.js';
import { JobInstanceStatus } from '../state-machine/job-instance-status.js';
import { assertTransition } from '../state-machine/transitions.js';
import { isUniqueViolation } from './db-errors.js';

const UNFINISHED = [JobInstanceStatus.PENDING, JobInstanceStatus.WAITING, JobInstanceStatus.DISPATCHED, JobInstanceStatus.RUNNING];

/** Extra conditions of a transition's WHERE clause (DESIGN §4): each must hold for the write to win. */
export interface TransitionGuard {
  attempt?: number;
  fencingToken?: number;
  nodeId?: string;
}

/**
 * All job_instance I/O. Every status change goes through {@link transition}: one conditional UPDATE
 * `WHERE id=? AND status=? [AND attempt=?] [AND fencing_token=?] [AND node_id=?]`; false means another
 * writer won and the caller must do nothing (DESIGN §4).
 */
@Injectable()
export class JobInstanceRepository {
  private readonly repo: Repository<JobInstance>;

  constructor(@InjectDataSource() private readonly ds: DataSource) {
    this.repo = ds.getRepository(JobInstance);
  }

  /**
   * Inserts an API task. When (app_id, request_id) already exists, returns the existing row with
   * `created: false` — concurrent identical requests therefore create exactly one row.
   */
  async insertOrGet(row: JobInstance): Promise<{ created: boolean; instance: JobInstance }> {
    try {
      await this.repo.insert(row as QueryDeepPartialEntity<JobInstance>);
      return { created: true, instance: row };
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const existing = await this.findByRequest(row.appId, row.requestId);
      if (!existing) throw err;
      return { created: false, instance: existing };
    }
  }

  /**
   * INSERT IGNORE (SQLite: INSERT OR IGNORE) of fire rows inside `em`'s transaction, in multi-row
   * statements; a duplicate (job_id, fire_time, shard_index) is skipped. Built from the entity metadata
   * (column names and transformers) rather than TypeORM's insert builder, which cost ~0.2 ms of CPU per
   * row on the firing path.
   */
  async insertIgnore(em: EntityManager, rows: JobInstance[]): Promise<void> {
    if (rows.length === 0) return;
    const columns = this.ds.getMetadata(JobInstance).columns;
    const verb = this.ds.options.type === 'mysql' ? 'INSERT IGNORE' : 'INSERT OR IGNORE';
    const names = columns.map((c) => (this.ds.options.type === 'mysql' ? `\`${c.databaseName}\`` : `"${c.databaseName}"`)).join(', ');
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    const chunk = Math.max(1, Math.floor(20_000 / columns.length));
    for (let i = 0; i < rows.length; i += chunk) {
      const part = rows.slice(i, i + chunk);
      const params: unknown[] = [];
      for (const row of part) {
        for (const c of columns) {
          const raw = (row as unknown as Record<string, unknown>)[c.propertyName];
          const v = c.transformer && !Array.isArray(c.transformer) ? c.transformer.to(raw) : raw;
          params.push(v === undefined ? null : typeof v === 'boolean' ? Number(v) : v);
        }
      }
      await em.query(`${verb} INTO job_instance (${names}) VALUES ${part.map(() => tuple).join(', ')}`, params);
    }
  }

  /** Which of `ids` exist (inside `em`, e.g. to learn which rows an INSERT IGNORE really wrote). */
  async existingIds(em: EntityManager, ids: string[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (let i = 0; i < ids.length; i += 1000) {
      const rows = await em.getRepository(JobInstance).find({ select: { id: true }, where: { id: In(ids.slice(i, i + 1000)) } });
      for (const r of rows) out.add(r.id);
    }
    return out;
  }

  findById(id: string): Promise<JobInstance | null> {
    return this.repo.findOneBy({ id });
  }

  findByIds(ids: string[]): Promise<JobInstance[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.repo.findBy({ id: In(ids) });
  }

  findByRequest(appId: string, requestId: string): Promise<JobInstance | null> {
    return this.repo.findOneBy({ appId, requestId });
  }

  /**
   * Conditional status change (DESIGN §4). `patch` may not change `id`/`status`; it may bump `attempt`.
   * @returns true when this write won (exactly one row changed).
   * @throws SchedulerError(ILLEGAL_TRANSITION) for a pair not in the transition table.
   */
  async transition(
    id: string,
    from: JobInstanceStatus,
    to: JobInstanceStatus,
    guard: TransitionGuard,
    patch: Partial<JobInstance>,
    now: number,
  ): Promise<boolean> {
    assertTransition(from, to);
    const qb = this.repo
      .createQueryBuilder()
      .update(JobInstance)
      .set({ ...patch, status: to, updatedAt: now } as QueryDeepPartialEntity<JobInstance>)
      .where('id = :id', { id })
      .andWhere('status = :from', { from });
    if (guard.attempt !== undefined) qb.andWhere('attempt = :attempt', { attempt: guard.attempt });
    if (guard.fencingToken !== undefined) qb.andWhere('fencing_token = :token', { token: guard.fencingToken });
    if (guard.nodeId !== undefined) qb.andWhere('node_id = :nodeId', { nodeId: guard.nodeId });
    const res = await qb.execute();
    return res.affected === 1;
  }

  /** Extends a RUNNING row's lease if this node still holds it with `fencingToken`. */
  async renewLease(id: string, fencingToken: number, leaseUntil: number, now: number): Promise<boolean> {
    const res = await this.repo
      .createQueryBuilder()
      .update(JobInstance)
      .set({ leaseUntil, updatedAt: now })
      .where('id = :id AND status = :s AND fencing_token = :t', { id, s: JobInstanceStatus.RUNNING, t: fencingToken })
      .execute();
    return res.affected === 1;
  }

  /** PENDING rows due at or before `now`, oldest first. */
  findPendingDue(namespace: string, now: number, limit: number): Promise<JobInstance[]> {
    return this.repo.find({
      where: { namespace, status: JobInstanceStatus.PENDING, dueAt: LessThanOrEqual(now) },
      order: { dueAt: 'ASC' },
      take: limit,
    });
  }

  /** Rows on `nodeId` in any of `statuses`. */
  findOnNode(nodeId: string, statuses: JobInstanceStatus[], limit: number): Promise<JobInstance[]> {
    return this.repo.find({ where: { nodeId, status: In(statuses) }, take: limit });
  }

  /** RUNNING rows whose lease ended before `now` (DESIGN §7 backstop). */
  findExpiredLeases(namespace: string, now: number, limit: number): Promise<JobInstance[]> {
    return this.repo.find({ where: { namespace, status: JobInstanceStatus.RUNNING, leaseUntil: LessThan(now) }, take: limit });
  }

  /** DISPATCHED rows dispatched before `before` (candidates for re-push if their queue entry went missing). */
  findDispatchedBefore(namespace: string, before: number, limit: number): Promise<JobInstance[]> {
    return this.repo.find({ where: { namespace, status: JobInstanceStatus.DISPATCHED, dispatchedAt: LessThan(before) }, take: limit });
  }

  /** Distinct node ids holding DISPATCHED or RUNNING rows in `namespace`. */
  async nodesWithWork(namespace: string): Promise<string[]> {
    const rows = await this.repo
      .createQueryBuilder('i')
      .select('DISTINCT i.node_id', 'nodeId')
      .where('i.namespace = :namespace AND i.status IN (:...s)', { namespace, s: [JobInstanceStatus.DISPATCHED, JobInstanceStatus.RUNNING] })
      .getRawMany<{ nodeId: string | null }>();
    return rows.map((r) => r.nodeId).filter((n): n is string => !!n);
  }

  /** Most recent instances of a job, newest fire first. */
  listByJob(jobId: string, limit: number): Promise<JobInstance[]> {
    return this.repo.find({ where: { jobId }, order: { fireTime: 'DESC' }, take: limit });
  }

  /** Unfinished (PENDING, WAITING, DISPATCHED, RUNNING) instances of the given jobs, oldest fire first, inside `em`. */
  async unfinishedOfJobs(em: EntityManager, jobIds: string[]): Promise<Map<string, JobInstance[]>> {
    const out = new Map<string, JobInstance[]>();
    if (jobIds.length === 0) return out;
    const rows = await em.getRepository(JobInstance).find({ where: { jobId: In(jobIds), status: In(UNFINISHED) }, order: { fireTime: 'ASC' } });
    for (const r of rows) out.set(r.jobId as string, [...(out.get(r.jobId as string) ?? []), r]);
    return out;
  }

  /**
   * QUEUE overlap (DESIGN §5): when no instance of the job is PENDING, DISPATCHED or RUNNING, moves its
   * oldest WAITING instance to PENDING (due now). Returns the released row, or null. Safe to race: the
   * move is a conditional transition.
   */
  async releaseNextWaiting(jobId: string, now: number): Promise<JobInstance | null> {
    const active = await this.repo.count({ where: { jobId, status: In([JobInstanceStatus.PENDING, JobInstanceStatus.DISPATCHED, JobInstanceStatus.RUNNING]) } });
    if (active > 0) return null;
    const next = await this.repo.findOne({ where: { jobId, status: JobInstanceStatus.WAITING }, order: { fireTime: 'ASC' } });
    if (!next) return null;
    const won = await this.transition(next.id, JobInstanceStatus.WAITING, JobInstanceStatus.PENDING, { attempt: next.attempt }, { dueAt: now }, now);
    return won ? { ...next, status: JobInstanceStatus.PENDING, dueAt: now } : null;
  }

  /** Job ids that have WAITING instances (for the reconciler's release backstop). */
  async jobsWithWaiting(namespace: string, limit: number): Promise<string[]> {
    const rows = await this.repo
      .createQueryBuilder('i')
      .select('DISTINCT i.job_id', 'jobId')
      .where('i.namespace = :namespace AND i.status = :s', { namespace, s: JobInstanceStatus.WAITING })
      .limit(limit)
      .getRawMany<{ jobId: string | null }>();
    return rows.map((r) => r.jobId).filter((j): j is string => !!j);
  }

  /** Of the given ids, those whose row is no longer RUNNING with the given fencing token (cancelled or taken away). */
  async notRunningAnyMore(running: Array<{ id: string; fencingToken: number }>): Promise<string[]> {
    if (running.length === 0) return [];
    const rows = await this.repo.find({ select: { id: true, status: true, fencingToken: true }, where: { id: In(running.map((r) => r.id)) } });
    const byId = new Map(rows.map((r) => [r.id, r]));
    return running.filter((r) => byId.get(r.id)?.status !== JobInstanceStatus.RUNNING || byId.get(r.id)?.fencingToken !== r.fencingToken).map((r) => r.id);
  }
}
