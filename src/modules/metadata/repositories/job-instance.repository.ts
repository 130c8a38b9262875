import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, LessThan, LessThanOrEqual, MoreThan, QueryDeepPartialEntity, Repository } from 'typeorm';
import { JobInstance, TriggerSource } from '../entities/index.js';
import { JobInstanceStatus } from '../state-machine/job-instance-status.js';
import { assertTransition } from '../state-machine/transitions.js';
import { isUniqueViolation, withDbRetry } from './db-errors.js';
import { runStatement } from './raw-statement.js';
import { runTransaction } from './transactions.js';

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
      // updateEntity(false): every column is set by the caller, so TypeORM's read-back SELECT is waste.
      await this.repo.createQueryBuilder().insert().into(JobInstance).values(row as QueryDeepPartialEntity<JobInstance>).updateEntity(false).execute();
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
   * @returns how many rows were inserted (the others were duplicates and skipped).
   */
  async insertIgnore(em: EntityManager, rows: JobInstance[]): Promise<number> {
    if (rows.length === 0) return 0;
    const columns = this.ds.getMetadata(JobInstance).columns;
    const verb = this.ds.options.type === 'mysql' ? 'INSERT IGNORE' : 'INSERT OR IGNORE';
    const names = columns.map((c) => (this.ds.options.type === 'mysql' ? `\`${c.databaseName}\`` : `"${c.databaseName}"`)).join(', ');
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    const chunk = Math.max(1, Math.floor(20_000 / columns.length));
    let inserted = 0;
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
      const res = await runStatement(this.ds, em, `${verb} INTO job_instance (${names}) VALUES ${part.map(() => tuple).join(', ')}`, params);
      inserted += Number(res.affected ?? 0);
    }
    return inserted;
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

  /**
   * API tasks in bulk, one app, distinct request ids: multi-row INSERT IGNORE ({@link insertIgnore}),
   * then {@link existingIds} says which rows this call wrote, and the request ids that already had a row
   * are read back. Returns, aligned with `rows`, the row stored under each request id and whether this
   * call created it; concurrent identical batches therefore create each row once. Each statement commits
   * on its own (no transaction: on SQLite one would share the process's single connection with every other
   * caller); rows are written in request-id order, so two batches sharing ids lock them in the same order.
   */
  async insertOrGetMany(rows: JobInstance[]): Promise<Array<{ created: boolean; instance: JobInstance }>> {
    if (rows.length === 0) return [];
    const em = this.ds.manager;
    const inserted = await this.insertIgnore(em, [...rows].sort((a, b) => (a.requestId < b.requestId ? -1 : a.requestId > b.requestId ? 1 : 0)));
    // Every row written (the usual case): no need to ask which. Ids are fresh UUIDv7s, so a skipped row is a request id already taken.
    const written = inserted === rows.length ? new Set(rows.map((r) => r.id)) : await this.existingIds(em, rows.map((r) => r.id));
    const missing = rows.filter((r) => !written.has(r.id)).map((r) => r.requestId);
    const exact = new Map<string, JobInstance>();
    const folded = new Map<string, JobInstance>(); // MySQL's default collation compares request ids case-insensitively
    for (let i = 0; i < missing.length; i += 1000) {
      for (const f of await this.repo.findBy({ appId: rows[0].appId, requestId: In(missing.slice(i, i + 1000)) })) {
        exact.set(f.requestId, f);
        folded.set(f.requestId.toLowerCase(), f);
      }
    }
    return rows.map((r) => {
      if (written.has(r.id)) return { created: true, instance: r };
      const instance = exact.get(r.requestId) ?? folded.get(r.requestId.toLowerCase());
      if (!instance) throw new Error(`task '${r.requestId}' was neither inserted nor found`);
      return { created: false, instance };
    });
  }

  /**
   * PENDING→DISPATCHED of many rows to one node in one conditional UPDATE (DESIGN §4; the transition is
   * checked against the table once): only rows still PENDING and due (`due_at <= now`, so a retry waiting
   * out its backoff is never sent early) are taken, each stamped with `nodeId` and `dispatched_at = now`.
   * When fewer rows changed than were asked, the winners are read back (a row DISPATCHED to this node at
   * this instant). A deadlock with another multi-row writer (MySQL picks a victim) is retried (withDbRetry,
   * 10 and 20 ms apart: 3 tries in all, as before).
   * @returns the ids this call dispatched.
   */
  async dispatchMany(ids: string[], nodeId: string, now: number): Promise<Set<string>> {
    assertTransition(JobInstanceStatus.PENDING, JobInstanceStatus.DISPATCHED);
    const won = new Set<string>();
    for (let i = 0; i < ids.length; i += 1000) {
      const part = ids.slice(i, i + 1000);
      const res = await withDbRetry(() => this.repo.createQueryBuilder().update(JobInstance)
        .set({ status: JobInstanceStatus.DISPATCHED, nodeId, dispatchedAt: now, updatedAt: now })
        .where('id IN (:...ids) AND status = :s AND due_at <= :now', { ids: part, s: JobInstanceStatus.PENDING, now })
        .execute(), 30);
      if (res.affected === part.length) {
        for (const id of part) won.add(id);
        continue;
      }
      const rows = await this.repo.find({ select: { id: true }, where: { id: In(part), status: JobInstanceStatus.DISPATCHED, nodeId, dispatchedAt: now } });
      for (const r of rows) won.add(r.id);
    }
    return won;
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
   * Unfinished (PENDING, WAITING, DISPATCHED, RUNNING) instances of app `appId` in every namespace: its
   * tasks and its jobs' fires. Read from the (app_id, status) index alone (the MAX_UNFINISHED_TASKS_PER_APP cap).
   */
  async countUnfinishedOfApp(appId: string): Promise<number> {
    const rows: Array<{ n: number | string }> = await this.repo.manager.query(
      `SELECT COUNT(*) AS n FROM job_instance WHERE app_id = ? AND status IN (${UNFINISHED.map(() => '?').join(', ')})`, [appId, ...UNFINISHED]);
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * Runs `work` as one transaction in the cluster shape (MySQL), so writes that must land together do — a
   * transition and the job_attempt row it closes: a process killed between the two would leave an attempt
   * that never ends. SQLite runs `work` without one (`em` undefined): TypeORM's better-sqlite3 driver shares
   * one connection, where a second transaction opened while another is open nests inside it; and standalone
   * is one process, so no other node goes on from a half-written state.
   */
  together<T>(work: (em: EntityManager | undefined) => Promise<T>): Promise<T> {
    return this.ds.options.type === 'mysql' ? this.ds.transaction((em) => work(em)) : work(undefined);
  }

  /**
   * Runs `fn` in one real transaction on both databases (SQLite: one at a time, see runTransaction), for a
   * change that must commit with its audit row (an audited cancel). Unlike {@link together}, never on the
   * executor's hot path.
   */
  transaction<T>(fn: (em: EntityManager) => Promise<T>): Promise<T> {
    return runTransaction(this.ds, fn);
  }

  /**
   * Conditional status change (DESIGN §4). `patch` may not change `id`/`status`; it may bump `attempt`.
   * `em`: run inside that transaction (see {@link together}).
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
    em?: EntityManager,
  ): Promise<boolean> {
    assertTransition(from, to);
    const qb = (em ? em.getRepository(JobInstance) : this.repo)
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

  /**
   * Staged scheduled fires (DESIGN §5 delta "staging"): SCHEDULE rows that have not started (PENDING or
   * DISPATCHED), keyset-paged by (fire_time, id) after `after` (fire_time > after.fireTime, or equal with
   * a larger id), earliest first. A new leader reads them to push each id at its fire time. Paging by the
   * pair matters: thousands of fires share one instant.
   */
  findStaged(namespace: string, after: { fireTime: number; id: string }, limit: number): Promise<Array<Pick<JobInstance, 'id' | 'appId' | 'status' | 'nodeId' | 'fireTime'>>> {
    return this.repo.createQueryBuilder('i')
      .select(['i.id', 'i.appId', 'i.status', 'i.nodeId', 'i.fireTime'])
      .where('i.namespace = :namespace AND i.status IN (:...s) AND i.trigger_source = :src', {
        namespace, s: [JobInstanceStatus.PENDING, JobInstanceStatus.DISPATCHED], src: TriggerSource.SCHEDULE,
      })
      .andWhere('(i.fire_time > :t OR (i.fire_time = :t AND i.id > :id))', { t: after.fireTime, id: after.id })
      .orderBy('i.fire_time', 'ASC')
      .addOrderBy('i.id', 'ASC')
      .limit(limit)
      .getMany();
  }

  /**
   * Removes the staged fires of one job whose fire time is after `afterMs` (inside `em`, the transaction
   * that changes the job). They never reached an executor: at most their id waits on a leader's wheel,
   * and a claim of a missing row does nothing. Deleting rather than cancelling keeps the unique
   * (job_id, fire_time, shard_index) key free for the same instant under the job's new schedule.
   * @returns how many rows were removed and the earliest fire time among them (null when none).
   */
  async deleteStaged(em: EntityManager, jobId: string, afterMs: number): Promise<{ removed: number; earliest: number | null }> {
    const where = { jobId, triggerSource: TriggerSource.SCHEDULE, status: In([JobInstanceStatus.PENDING, JobInstanceStatus.DISPATCHED]), fireTime: MoreThan(afterMs) };
    const repo = em.getRepository(JobInstance);
    const first = await repo.findOne({ select: { id: true, fireTime: true }, where, order: { fireTime: 'ASC' } });
    if (!first) return { removed: 0, earliest: null };
    const res = await repo.delete(where);
    return { removed: res.affected ?? 0, earliest: first.fireTime };
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

  /** Instances of a job, newest fire first: `limit` of them after skipping `offset`. */
  listByJob(jobId: string, offset: number, limit: number): Promise<JobInstance[]> {
    return this.repo.find({ where: { jobId }, order: { fireTime: 'DESC' }, skip: offset, take: limit });
  }

  /**
   * Unfinished (PENDING, WAITING, DISPATCHED, RUNNING) instances of the given jobs, oldest fire first, inside `em`;
   * with `now`, also the cancelled ones whose handler may still be stopping then (their stop grace): the
   * overlap policies count them as running.
   */
  async unfinishedOfJobs(em: EntityManager, jobIds: string[], now?: number): Promise<Map<string, JobInstance[]>> {
    const out = new Map<string, JobInstance[]>();
    if (jobIds.length === 0) return out;
    const where = [
      { jobId: In(jobIds), status: In(UNFINISHED) },
      ...(now === undefined ? [] : [{ jobId: In(jobIds), status: JobInstanceStatus.CANCELLED, leaseUntil: MoreThan(now) }]),
    ];
    const rows = await em.getRepository(JobInstance).find({ where, order: { fireTime: 'ASC' } });
    for (const r of rows) out.set(r.jobId as string, [...(out.get(r.jobId as string) ?? []), r]);
    return out;
  }

  /** The oldest WAITING instance (by fire time) of job `jobId`, or null. */
  findOldestWaiting(jobId: string): Promise<JobInstance | null> {
    return this.repo.findOne({ where: { jobId, status: JobInstanceStatus.WAITING }, order: { fireTime: 'ASC' } });
  }

  /** Job `jobId`'s overlap policy and maxConcurrency as stored now (job_definition), or null when it is gone. */
  async findJobAdmission(jobId: string): Promise<{ overlapPolicy: string; maxConcurrency: number } | null> {
    const rows: Array<{ overlap_policy: string; max_concurrency: number | string }> = await this.repo.manager.query(
      'SELECT overlap_policy, max_concurrency FROM job_definition WHERE id = ?', [jobId]);
    return rows[0] ? { overlapPolicy: rows[0].overlap_policy, maxConcurrency: Number(rows[0].max_concurrency) } : null;
  }

  /**
   * How many instances of job `jobId` are in `statuses`, or PENDING with due_at <= `pendingDueBy` (when not null),
   * or CANCELLED with lease_until after `cancelledLeaseAfter` (epoch ms).
   */
  countOfJob(
    jobId: string,
    statuses: JobInstanceStatus[],
    pendingDueBy: number | null,
    cancelledLeaseAfter: number,
  ): Promise<number> {
    const pending = JobInstanceStatus.PENDING;
    const due = pendingDueBy === null ? [] : [{ jobId, status: pending, dueAt: LessThanOrEqual(pendingDueBy) }];
    const cancelled = { jobId, status: JobInstanceStatus.CANCELLED, leaseUntil: MoreThan(cancelledLeaseAfter) };
    return this.repo.count({ where: [{ jobId, status: In(statuses) }, ...due, cancelled] });
  }

  /** Clears lease_until of a CANCELLED row cancelled at attempt `fencingToken` (the stop grace's end). */
  async clearCancelledLease(id: string, fencingToken: number): Promise<void> {
    await this.repo
      .createQueryBuilder()
      .update(JobInstance)
      .set({ leaseUntil: null })
      .where('id = :id AND status = :s AND fencing_token = :t', { id, s: JobInstanceStatus.CANCELLED, t: fencingToken })
      .execute();
  }

  /** CANCELLED instances of `jobIds` whose lease_until (their stop grace) lies after `now` (epoch ms). */
  findStopping(jobIds: string[], now: number): Promise<Array<Pick<JobInstance, 'id' | 'jobId' | 'leaseUntil'>>> {
    if (jobIds.length === 0) return Promise.resolve([]);
    return this.repo.find({
      select: { id: true, jobId: true, leaseUntil: true },
      where: { jobId: In(jobIds), status: JobInstanceStatus.CANCELLED, leaseUntil: MoreThan(now) },
    });
  }

  /** Job ids that have WAITING instances, at most `limit`, in id order after `afterJobId` (keyset paging). */
  async jobsWithWaiting(namespace: string, limit: number, afterJobId = ''): Promise<string[]> {
    const rows = await this.repo
      .createQueryBuilder('i')
      .select('DISTINCT i.job_id', 'jobId')
      .where('i.namespace = :namespace AND i.status = :s AND i.job_id > :after', { namespace, s: JobInstanceStatus.WAITING, after: afterJobId })
      .orderBy('i.job_id', 'ASC')
      .limit(limit)
      .getRawMany<{ jobId: string | null }>();
    return rows.map((r) => r.jobId).filter((j): j is string => !!j);
  }

  /**
   * The reconciler's lost-push candidates (DESIGN §3, §6): DISPATCHED rows of `namespace` dispatched before
   * `before` (epoch ms), at most `limit`; only id, node and dispatch time are read.
   */
  findDispatchedRefsBefore(namespace: string, before: number, limit: number): Promise<Array<Pick<JobInstance, 'id' | 'nodeId' | 'dispatchedAt'>>> {
    return this.repo.find({
      select: { id: true, nodeId: true, dispatchedAt: true },
      where: { namespace, status: JobInstanceStatus.DISPATCHED, dispatchedAt: LessThan(before) },
      take: limit,
    });
  }

  /**
   * The instances that should hold a slot of their job's maxConcurrency semaphore (DESIGN §7): DISPATCHED
   * and RUNNING rows of `namespace` with max_concurrency > 0 (of `jobIds` only, when given), at most
   * `limit`, by id, after `afterId` (keyset paging: a caller that reads a page per pass goes round them all);
   * only the columns the semaphore needs are read.
   */
  findSlotHolders(namespace: string, limit: number, jobIds?: string[], afterId = ''): Promise<Array<Pick<JobInstance, 'id' | 'jobId' | 'status' | 'maxConcurrency' | 'timeoutMs'>>> {
    return this.repo.find({
      select: { id: true, jobId: true, status: true, maxConcurrency: true, timeoutMs: true },
      where: {
        namespace, status: In([JobInstanceStatus.DISPATCHED, JobInstanceStatus.RUNNING]), maxConcurrency: MoreThan(0),
        ...(jobIds ? { jobId: In(jobIds) } : {}), ...(afterId ? { id: MoreThan(afterId) } : {}),
      },
      order: { id: 'ASC' },
      take: limit,
    });
  }

  /** Those of `ids` whose row is now in one of `statuses` (one read of the ids only; keep `ids` to a page). */
  async idsInStatus(ids: string[], statuses: JobInstanceStatus[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.repo.find({ select: { id: true }, where: { id: In(ids), status: In(statuses) } });
    return new Set(rows.map((r) => r.id));
  }

  /**
   * Of the given attempts, those whose row is no longer RUNNING with the given fencing token (cancelled or
   * taken away); two attempts of one id (an old one and its re-claim) are judged each by its own token.
   */
  async notRunningAnyMore<T extends { id: string; fencingToken: number }>(running: T[]): Promise<T[]> {
    if (running.length === 0) return [];
    const rows = await this.repo.find({ select: { id: true, status: true, fencingToken: true }, where: { id: In(running.map((r) => r.id)) } });
    const byId = new Map(rows.map((r) => [r.id, r]));
    return running.filter((r) => byId.get(r.id)?.status !== JobInstanceStatus.RUNNING || byId.get(r.id)?.fencingToken !== r.fencingToken);
  }
}
