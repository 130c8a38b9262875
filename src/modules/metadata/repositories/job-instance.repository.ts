import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  DataSource,
  EntityManager,
  In,
  LessThan,
  LessThanOrEqual,
  MoreThan,
  QueryDeepPartialEntity,
  Repository,
} from 'typeorm';
import { JobInstance, TriggerSource } from '../entities/index.js';
import { JobInstanceStatus } from '../state-machine/job-instance-status.js';
import { assertTransition } from '../state-machine/transitions.js';
import { isUniqueViolation, withDbRetry } from './db-errors.js';
import { insertIgnoreVerb, marks, runStatement, STATEMENT_ROWS } from './raw-statement.js';

const S = JobInstanceStatus;
const UNFINISHED = [S.PENDING, S.WAITING, S.DISPATCHED, S.RUNNING];

/** A successful attempt: the instance, the attempt and token it ran under, and its (bounded) result. */
export interface SucceededAttempt {
  id: string;
  attempt: number;
  fencingToken: number;
  result: unknown;
}

/** One checkpoint write (JobInstanceRepository.writeCheckpoint); times epoch ms UTC. */
export interface CheckpointWrite {
  id: string;
  attempt: number;
  fencingToken: number;
  /** The state as JSON text, already bounded by the caller. */
  json: string;
  at: number;
  leaseUntil: number;
}

/** A checkpoint as stored: its text (null when the column was emptied by hand), who wrote it and when (ms UTC). */
export interface StoredCheckpoint {
  text: string | null;
  attempt: number;
  fencingToken: number;
  at: number;
}

/** Extra conditions of a transition's WHERE clause (docs/state-machine.md): each must hold for the write to win. */
export interface TransitionGuard {
  attempt?: number;
  fencingToken?: number;
  nodeId?: string;
}

/** A progress report to store (docs/long-tasks.md "Progress"): fraction 0..1, note ≤ 256 chars, at epoch ms. */
export interface ProgressReport {
  instanceId: string;
  fencingToken: number;
  progress: number;
  note: string | null;
  at: number;
}

/** All job_instance I/O; a status change is a conditional UPDATE another writer may win (docs/state-machine.md). */
@Injectable()
export class JobInstanceRepository {
  private readonly repo: Repository<JobInstance>;
  private readonly columns;
  private readonly resultColumn;
  private readonly readColumns;
  private readonly selected: string;

  constructor(@InjectDataSource() private readonly ds: DataSource) {
    this.repo = ds.getRepository(JobInstance);
    this.columns = ds.getMetadata(JobInstance).columns;
    this.resultColumn = this.columns.find((c) => c.propertyName === 'result')!;
    // Every column but those read on demand (the checkpoint's MEDIUMTEXT): what a claim reads of each row.
    this.readColumns = this.columns.filter((c) => c.isSelect);
    const quote = (name: string) => (ds.options.type === 'mysql' ? `\`${name}\`` : `"${name}"`);
    this.selected = this.readColumns.map((c) => quote(c.databaseName)).join(', ');
  }

  /** Inserts an API task, or returns the row its (app_id, request_id) already has with `created: false`. */
  async insertOrGet(row: JobInstance): Promise<{ created: boolean; instance: JobInstance }> {
    try {
      await this.repo
        .createQueryBuilder()
        .insert()
        .into(JobInstance)
        .values(row as QueryDeepPartialEntity<JobInstance>)
        .updateEntity(false)
        .execute();
      return { created: true, instance: row };
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const existing = await this.findByRequest(row.appId, row.requestId);
      if (!existing) throw err;
      return { created: false, instance: existing };
    }
  }

  /** INSERT IGNORE of new rows inside `em`, raw (the builder costs ~0.2 ms a row). @returns rows inserted. */
  async insertIgnore(em: EntityManager, rows: JobInstance[]): Promise<number> {
    if (rows.length === 0) return 0;
    const columns = this.columns;
    const verb = insertIgnoreVerb(this.ds);
    const quote = (name: string) => (this.ds.options.type === 'mysql' ? `\`${name}\`` : `"${name}"`);
    const names = columns.map((c) => quote(c.databaseName)).join(', ');
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
      const sql = `${verb} INTO job_instance (${names}) VALUES ${part.map(() => tuple).join(', ')}`;
      const res = await runStatement(this.ds, em, sql, params);
      inserted += Number(res.affected ?? 0);
    }
    return inserted;
  }

  /** Which of `ids` exist (inside `em`, e.g. to learn which rows an INSERT IGNORE really wrote). */
  async existingIds(em: EntityManager, ids: string[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (let i = 0; i < ids.length; i += 1000) {
      const rows = await em
        .getRepository(JobInstance)
        .find({ select: { id: true }, where: { id: In(ids.slice(i, i + 1000)) } });
      for (const r of rows) out.add(r.id);
    }
    return out;
  }

  /**
   * API tasks in bulk (one app, distinct request ids): aligned with `rows`, the row stored under each request id
   * and whether this call created it. Statements commit alone (no unit of work holding SQLite's connection);
   * rows go in request-id order, so two batches sharing ids lock them in the same order.
   */
  async insertOrGetMany(rows: JobInstance[]): Promise<Array<{ created: boolean; instance: JobInstance }>> {
    if (rows.length === 0) return [];
    const em = this.ds.manager;
    const byRequest = (a: JobInstance, b: JobInstance) =>
      a.requestId < b.requestId ? -1 : a.requestId > b.requestId ? 1 : 0;
    const inserted = await this.insertIgnore(em, [...rows].sort(byRequest));
    const written =
      inserted === rows.length
        ? new Set(rows.map((r) => r.id))
        : await this.existingIds(
            em,
            rows.map((r) => r.id),
          );
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
   * PENDING→DISPATCHED to `nodeId` of the rows still PENDING and due (a retry in its backoff is never sent early),
   * one UPDATE per 1,000; a deadlock is retried for 30 ms. @returns the ids this call dispatched.
   */
  async dispatchMany(ids: string[], nodeId: string, now: number): Promise<Set<string>> {
    assertTransition(JobInstanceStatus.PENDING, JobInstanceStatus.DISPATCHED);
    const won = new Set<string>();
    for (let i = 0; i < ids.length; i += 1000) {
      const part = ids.slice(i, i + 1000);
      const res = await withDbRetry(
        () =>
          this.repo
            .createQueryBuilder()
            .update(JobInstance)
            .set({ status: JobInstanceStatus.DISPATCHED, nodeId, dispatchedAt: now, updatedAt: now })
            .where('id IN (:...ids) AND status = :s AND due_at <= :now', {
              ids: part,
              s: JobInstanceStatus.PENDING,
              now,
            })
            .execute(),
        30,
      );
      if (res.affected === part.length) {
        for (const id of part) won.add(id);
        continue;
      }
      const rows = await this.repo.find({
        select: { id: true },
        where: { id: In(part), status: JobInstanceStatus.DISPATCHED, nodeId, dispatchedAt: now },
      });
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

  /** Unfinished instances of app `appId` in every namespace, from the (app_id, status) index alone. */
  async countUnfinishedOfApp(appId: string): Promise<number> {
    const rows: Array<{ n: number | string }> = await this.repo.manager.query(
      `SELECT COUNT(*) AS n FROM job_instance WHERE app_id = ? AND status IN (${marks(UNFINISHED.length)})`,
      [appId, ...UNFINISHED],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** Conditional status change. @returns whether this write won. @throws SchedulerError(ILLEGAL_TRANSITION). */
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

  /** The rows of `ids` that exist, whole but for the checkpoint text (raw SELECT per STATEMENT_ROWS ids). */
  async findMany(ids: string[], em?: EntityManager): Promise<JobInstance[]> {
    const out: JobInstance[] = [];
    for (let i = 0; i < ids.length; i += STATEMENT_ROWS) {
      const part = ids.slice(i, i + STATEMENT_ROWS);
      const sql = `SELECT ${this.selected} FROM job_instance WHERE id IN (${marks(part.length)})`;
      for (const r of (await runStatement(this.ds, em, sql, part)).records ?? []) out.push(this.hydrate(r));
    }
    return out;
  }

  /**
   * DISPATCHED→RUNNING in one UPDATE of the `rows` (≤ STATEMENT_ROWS, as read) still DISPATCHED to `nodeId` at
   * their attempt and token: token+1, lease, start. @returns the rows (as read) this call moved.
   */
  async claimDispatched(
    em: EntityManager | undefined,
    rows: JobInstance[],
    nodeId: string,
    now: number,
    leaseUntil: number,
  ): Promise<JobInstance[]> {
    assertTransition(S.DISPATCHED, S.RUNNING);
    const ids = rows.map((r) => r.id);
    const res = await runStatement(
      this.ds,
      em,
      `UPDATE job_instance SET status = ?, fencing_token = fencing_token + 1, lease_until = ?, started_at = ?,
         updated_at = ?
       WHERE id IN (${marks(ids.length)}) AND status = ? AND node_id = ?
         AND CASE id ${rows.map(() => 'WHEN ? THEN (attempt = ? AND fencing_token = ?)').join(' ')} END`,
      [
        S.RUNNING,
        leaseUntil,
        now,
        now,
        ...ids,
        S.DISPATCHED,
        nodeId,
        ...rows.flatMap((r) => [r.id, r.attempt, r.fencingToken]),
      ],
    );
    if (res.affected === rows.length) return rows;
    const back = await runStatement(
      this.ds,
      em,
      `SELECT id FROM job_instance WHERE id IN (${marks(ids.length)}) AND status = ? AND node_id = ? AND started_at = ?
         AND CASE id ${rows.map(() => 'WHEN ? THEN fencing_token = ?').join(' ')} END`,
      [...ids, S.RUNNING, nodeId, now, ...rows.flatMap((r) => [r.id, r.fencingToken + 1])],
    );
    const ok = new Set((back.records ?? []).map((r) => (r as { id: string }).id));
    return rows.filter((r) => ok.has(r.id));
  }

  /**
   * RUNNING→SUCCESS of each row still RUNNING at its attempt and token, one UPDATE per STATEMENT_ROWS; a retry
   * with the same `now` counts its own earlier write as won. @returns the instance ids whose write won.
   */
  async succeedMany(em: EntityManager | undefined, done: SucceededAttempt[], now: number): Promise<Set<string>> {
    assertTransition(S.RUNNING, S.SUCCESS);
    const won = new Set<string>();
    const toColumn = this.resultColumn.transformer as { to(v: unknown): unknown } | undefined;
    for (let i = 0; i < done.length; i += STATEMENT_ROWS) {
      const part = done.slice(i, i + STATEMENT_ROWS);
      const ids = part.map((d) => d.id);
      const guards = part.flatMap((d) => [d.id, d.attempt, d.fencingToken]);
      const guard = `CASE id ${part.map(() => 'WHEN ? THEN (attempt = ? AND fencing_token = ?)').join(' ')} END`;
      const results = part.flatMap((d) => [d.id, toColumn ? (toColumn.to(d.result) ?? null) : d.result]);
      const res = await runStatement(
        this.ds,
        em,
        `UPDATE job_instance SET status = ?, result = CASE id ${part.map(() => 'WHEN ? THEN ?').join(' ')} END,
           error = NULL, lease_until = NULL, finished_at = ?, updated_at = ?
         WHERE id IN (${marks(ids.length)}) AND status = ? AND ${guard}`,
        [S.SUCCESS, ...results, now, now, ...ids, S.RUNNING, ...guards],
      );
      if (res.affected === part.length) {
        for (const id of ids) won.add(id);
        continue;
      }
      const back = await runStatement(
        this.ds,
        em,
        `SELECT id FROM job_instance
         WHERE id IN (${marks(ids.length)}) AND status = ? AND finished_at = ? AND ${guard}`,
        [...ids, S.SUCCESS, now, ...guards],
      );
      for (const r of back.records ?? []) won.add((r as { id: string }).id);
    }
    return won;
  }

  /** Extends a RUNNING row's lease if this node still holds it with `fencingToken`. */
  async renewLease(id: string, fencingToken: number, leaseUntil: number, now: number): Promise<boolean> {
    const res = await this.repo
      .createQueryBuilder()
      .update(JobInstance)
      .set({ leaseUntil, updatedAt: now })
      .where('id = :id AND status = :s AND fencing_token = :t', { id, s: S.RUNNING, t: fencingToken })
      .execute();
    return res.affected === 1;
  }

  /**
   * Stores a checkpoint's JSON text for the attempt holding `fencingToken` and renews its lease, in one UPDATE
   * conditional on the token and status RUNNING (docs/long-tasks.md "Checkpoints"). Safe to repeat with the same
   * values. @returns false when the row is no longer RUNNING under that token (a newer attempt owns it).
   */
  async writeCheckpoint(w: CheckpointWrite): Promise<boolean> {
    const res = await runStatement(
      this.ds,
      undefined,
      `UPDATE job_instance SET checkpoint = ?, checkpoint_attempt = ?, checkpoint_token = ?, checkpoint_at = ?,
         lease_until = ?, updated_at = ?
       WHERE id = ? AND fencing_token = ? AND status = ?`,
      [w.json, w.attempt, w.fencingToken, w.at, w.leaseUntil, w.at, w.id, w.fencingToken, S.RUNNING],
    );
    return res.affected === 1;
  }

  /** The stored checkpoints of those of `ids` that have one (checkpoint_at set), as text, by instance id. */
  async readCheckpoints(em: EntityManager | undefined, ids: string[]): Promise<Map<string, StoredCheckpoint>> {
    const out = new Map<string, StoredCheckpoint>();
    for (let i = 0; i < ids.length; i += STATEMENT_ROWS) {
      const part = ids.slice(i, i + STATEMENT_ROWS);
      const res = await runStatement(
        this.ds,
        em,
        `SELECT id, checkpoint, checkpoint_attempt, checkpoint_token, checkpoint_at FROM job_instance
         WHERE id IN (${marks(part.length)}) AND checkpoint_at IS NOT NULL`,
        part,
      );
      for (const raw of (res.records ?? []) as Array<Record<string, unknown>>) {
        const text = raw.checkpoint;
        out.set(String(raw.id), {
          text: text === null || text === undefined ? null : String(text),
          attempt: Number(raw.checkpoint_attempt),
          fencingToken: Number(raw.checkpoint_token),
          at: Number(raw.checkpoint_at),
        });
      }
    }
    return out;
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

  /** RUNNING rows whose lease ended before `now` (the backstop of docs/execution.md). */
  findExpiredLeases(namespace: string, now: number, limit: number): Promise<JobInstance[]> {
    return this.repo.find({ where: { namespace, status: S.RUNNING, leaseUntil: LessThan(now) }, take: limit });
  }

  /**
   * Staged fires (docs/trigger.md): SCHEDULE rows PENDING, or DISPATCHED and due at their fire time (a retry staged
   * for later is findStagedDelayed's), keyset-paged by (fire_time, id) after `after` (thousands of fires share one
   * instant), for a new leader to push at their fire time.
   */
  findStaged(
    namespace: string,
    after: { fireTime: number; id: string },
    limit: number,
  ): Promise<Array<Pick<JobInstance, 'id' | 'appId' | 'status' | 'nodeId' | 'fireTime'>>> {
    return this.repo
      .createQueryBuilder('i')
      .select(['i.id', 'i.appId', 'i.status', 'i.nodeId', 'i.fireTime'])
      .where('i.namespace = :namespace AND i.status IN (:...s) AND i.trigger_source = :src', {
        namespace,
        s: [JobInstanceStatus.PENDING, JobInstanceStatus.DISPATCHED],
        src: TriggerSource.SCHEDULE,
      })
      .andWhere('(i.fire_time > :t OR (i.fire_time = :t AND i.id > :id))', { t: after.fireTime, id: after.id })
      .andWhere("(i.status = 'PENDING' OR i.due_at = i.fire_time)")
      .orderBy('i.fire_time', 'ASC')
      .addOrderBy('i.id', 'ASC')
      .limit(limit)
      .getMany();
  }

  /**
   * Staged fires (written ahead: created_at < fire_time) never started nor routed again, due before `before`:
   * the candidates a new leader hands to the misfire policy (docs/trigger.md "Staging"). Oldest first.
   */
  findStagedUnstartedBefore(
    namespace: string,
    before: number,
    limit: number,
  ): Promise<Array<Pick<JobInstance, 'id' | 'jobId' | 'status' | 'nodeId' | 'fireTime'>>> {
    return this.repo
      .createQueryBuilder('i')
      .select(['i.id', 'i.jobId', 'i.status', 'i.nodeId', 'i.fireTime'])
      .where('i.namespace = :namespace AND i.trigger_source = :src AND i.fire_time < :before', {
        namespace,
        src: TriggerSource.SCHEDULE,
        before,
      })
      .andWhere('i.attempt = 1 AND i.started_at IS NULL AND i.created_at < i.fire_time')
      .andWhere("(i.status = 'PENDING' OR (i.status = 'DISPATCHED' AND i.dispatched_at = i.fire_time))")
      .orderBy('i.fire_time', 'ASC')
      .limit(limit)
      .getMany();
  }

  /**
   * Deletes, inside `em`, those of `ids` still unstarted (status PENDING or DISPATCHED, attempt 1), locking them
   * first on MySQL. @returns the job and fire time of each row removed.
   */
  async deleteUnstarted(em: EntityManager, ids: string[]): Promise<Array<Pick<JobInstance, 'jobId' | 'fireTime'>>> {
    if (ids.length === 0) return [];
    const qb = em
      .getRepository(JobInstance)
      .createQueryBuilder('i')
      .select(['i.id', 'i.jobId', 'i.fireTime'])
      .where('i.id IN (:...ids) AND i.status IN (:...s) AND i.attempt = 1 AND i.started_at IS NULL', {
        ids,
        s: [S.PENDING, S.DISPATCHED],
      });
    if (em.connection.options.type === 'mysql') qb.setLock('pessimistic_write');
    const rows = await qb.getMany();
    if (rows.length === 0) return [];
    await em.getRepository(JobInstance).delete({ id: In(rows.map((r) => r.id)) });
    return rows.map((r) => ({ jobId: r.jobId, fireTime: r.fireTime }));
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

  /** Deletes a job's staged fires after `afterMs` (freeing their fire keys). @returns count, earliest fire time. */
  async deleteStaged(
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

  /** Distinct node ids holding DISPATCHED or RUNNING rows in `namespace`. */
  async nodesWithWork(namespace: string): Promise<string[]> {
    const rows = await this.repo
      .createQueryBuilder('i')
      .select('DISTINCT i.node_id', 'nodeId')
      .where('i.namespace = :namespace AND i.status IN (:...s)', { namespace, s: [S.DISPATCHED, S.RUNNING] })
      .getRawMany<{ nodeId: string | null }>();
    return rows.map((r) => r.nodeId).filter((n): n is string => !!n);
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
    const qb = this.repo.createQueryBuilder('i').where('i.jobId = :jobId', { jobId });
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
    return this.repo.count({ where: { jobId } });
  }

  /**
   * Unfinished instances of the jobs, oldest fire first, inside `em`; with `now`, also cancelled ones still
   * stopping then (their stop grace, docs/admission.md), which the overlap policies count as running.
   */
  async unfinishedOfJobs(em: EntityManager, jobIds: string[], now?: number): Promise<Map<string, JobInstance[]>> {
    const out = new Map<string, JobInstance[]>();
    if (jobIds.length === 0) return out;
    const where = [
      { jobId: In(jobIds), status: In(UNFINISHED) },
      ...(now === undefined ? [] : [{ jobId: In(jobIds), status: S.CANCELLED, leaseUntil: MoreThan(now) }]),
    ];
    const rows = await em.getRepository(JobInstance).find({ where, order: { fireTime: 'ASC' } });
    for (const r of rows) out.set(r.jobId as string, [...(out.get(r.jobId as string) ?? []), r]);
    return out;
  }

  /** The oldest WAITING instance (by fire time) of job `jobId`, or null. */
  findOldestWaiting(jobId: string): Promise<JobInstance | null> {
    return this.repo.findOne({ where: { jobId, status: S.WAITING }, order: { fireTime: 'ASC' } });
  }

  /** Job `jobId`'s overlap policy and maxConcurrency as stored now (job_definition), or null when it is gone. */
  async findJobAdmission(jobId: string): Promise<{ overlapPolicy: string; maxConcurrency: number } | null> {
    const rows: Array<{ overlap_policy: string; max_concurrency: number | string }> = await this.repo.manager.query(
      'SELECT overlap_policy, max_concurrency FROM job_definition WHERE id = ?',
      [jobId],
    );
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
    const due = pendingDueBy === null ? [] : [{ jobId, status: S.PENDING, dueAt: LessThanOrEqual(pendingDueBy) }];
    const cancelled = { jobId, status: S.CANCELLED, leaseUntil: MoreThan(cancelledLeaseAfter) };
    return this.repo.count({ where: [{ jobId, status: In(statuses) }, ...due, cancelled] });
  }

  /** Clears lease_until of a CANCELLED row cancelled at attempt `fencingToken` (the stop grace's end). */
  async clearCancelledLease(id: string, fencingToken: number): Promise<void> {
    await this.repo
      .createQueryBuilder()
      .update(JobInstance)
      .set({ leaseUntil: null })
      .where('id = :id AND status = :s AND fencing_token = :t', { id, s: S.CANCELLED, t: fencingToken })
      .execute();
  }

  /** CANCELLED instances of `jobIds` whose lease_until (their stop grace) lies after `now` (epoch ms). */
  findStopping(jobIds: string[], now: number): Promise<Array<Pick<JobInstance, 'id' | 'jobId' | 'leaseUntil'>>> {
    if (jobIds.length === 0) return Promise.resolve([]);
    return this.repo.find({
      select: { id: true, jobId: true, leaseUntil: true },
      where: { jobId: In(jobIds), status: S.CANCELLED, leaseUntil: MoreThan(now) },
    });
  }

  /** Job ids that have WAITING instances, at most `limit`, in id order after `afterJobId` (keyset paging). */
  async jobsWithWaiting(namespace: string, limit: number, afterJobId = ''): Promise<string[]> {
    const rows = await this.repo
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

  /** The reconciler's lost-push candidates: DISPATCHED rows dispatched before `before` (id, node, time only). */
  findDispatchedRefsBefore(
    namespace: string,
    before: number,
    limit: number,
  ): Promise<Array<Pick<JobInstance, 'id' | 'nodeId' | 'dispatchedAt'>>> {
    return this.repo.find({
      select: { id: true, nodeId: true, dispatchedAt: true },
      where: { namespace, status: S.DISPATCHED, dispatchedAt: LessThan(before) },
      take: limit,
    });
  }

  /** DISPATCHED/RUNNING rows of limited jobs (slot holders, docs/admission.md), keyset-paged by id. */
  findSlotHolders(
    namespace: string,
    limit: number,
    jobIds?: string[],
    afterId = '',
  ): Promise<Array<Pick<JobInstance, 'id' | 'jobId' | 'status' | 'maxConcurrency' | 'timeoutMs'>>> {
    return this.repo.find({
      select: { id: true, jobId: true, status: true, maxConcurrency: true, timeoutMs: true },
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

  /** Those of `ids` whose row is now in one of `statuses` (keep `ids` to a page). */
  async idsInStatus(ids: string[], statuses: JobInstanceStatus[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.repo.find({ select: { id: true }, where: { id: In(ids), status: In(statuses) } });
    return new Set(rows.map((r) => r.id));
  }

  /** Those of the given attempts whose row is no longer RUNNING under their own fencing token. */
  async notRunningAnyMore<T extends { id: string; fencingToken: number }>(running: T[]): Promise<T[]> {
    if (running.length === 0) return [];
    const rows = await this.repo.find({
      select: { id: true, status: true, fencingToken: true },
      where: { id: In(running.map((r) => r.id)) },
    });
    const byId = new Map(rows.map((r) => [r.id, r]));
    const stillRunning = (r: T) => {
      const now = byId.get(r.id);
      return now?.status === S.RUNNING && now.fencingToken === r.fencingToken;
    };
    return running.filter((r) => !stillRunning(r));
  }

  /**
   * Stores many progress reports, one UPDATE per STATEMENT_ROWS; each row only while RUNNING at its fencing token
   * (a report still pending when its attempt ended lands nowhere). Instance ids must be distinct.
   * @returns how many rows changed.
   */
  async writeProgress(reports: ProgressReport[]): Promise<number> {
    let changed = 0;
    for (let i = 0; i < reports.length; i += STATEMENT_ROWS) {
      const part = reports.slice(i, i + STATEMENT_ROWS);
      const when = part.map(() => 'WHEN ? THEN ?').join(' ');
      const res = await runStatement(
        this.ds,
        undefined,
        `UPDATE job_instance SET progress = CASE id ${when} END, progress_note = CASE id ${when} END,
           progress_at = CASE id ${when} END
         WHERE id IN (${marks(part.length)}) AND status = ?
           AND CASE id ${when.replace(/THEN \?/g, 'THEN fencing_token = ?')} END`,
        [
          ...part.flatMap((r) => [r.instanceId, r.progress]),
          ...part.flatMap((r) => [r.instanceId, r.note]),
          ...part.flatMap((r) => [r.instanceId, r.at]),
          ...part.map((r) => r.instanceId),
          JobInstanceStatus.RUNNING,
          ...part.flatMap((r) => [r.instanceId, r.fencingToken]),
        ],
      );
      changed += res.affected ?? 0;
    }
    return changed;
  }

  /**
   * Stages delayed rows (docs/dispatch.md "Delayed tasks"): PENDING→DISPATCHED to `nodeId` with `dispatched_at` =
   * `due_at`, only while PENDING and still due after `now` (epoch ms), one UPDATE per 1,000; a deadlock is retried
   * for 30 ms. Nothing is pushed: the leader pushes the ids at their due time. @returns the ids this call staged.
   */
  async stageMany(ids: string[], nodeId: string, now: number): Promise<Set<string>> {
    assertTransition(S.PENDING, S.DISPATCHED);
    const won = new Set<string>();
    for (let i = 0; i < ids.length; i += 1000) {
      const part = ids.slice(i, i + 1000);
      const res = await withDbRetry(
        () =>
          runStatement(
            this.ds,
            undefined,
            `UPDATE job_instance SET status = ?, node_id = ?, dispatched_at = due_at, updated_at = ?
             WHERE id IN (${marks(part.length)}) AND status = ? AND due_at > ?`,
            [S.DISPATCHED, nodeId, now, ...part, S.PENDING, now],
          ),
        30,
      );
      if (res.affected === part.length) {
        for (const id of part) won.add(id);
        continue;
      }
      const rows: Array<{ id: string }> = await this.repo.manager.query(
        `SELECT id FROM job_instance WHERE id IN (${marks(part.length)}) AND status = ? AND node_id = ?
           AND dispatched_at = due_at AND updated_at = ?`,
        [...part, S.DISPATCHED, nodeId, now],
      );
      for (const r of rows) won.add(r.id);
    }
    return won;
  }

  /**
   * Staged delayed rows (written ahead by {@link stageMany}: `dispatched_at` = `due_at` > `created_at`, not started)
   * due after `after`, keyset-paged by (due_at, id), for a new leader to push at their due time. Scans the
   * DISPATCHED rows of the status index only.
   */
  findStagedDelayed(
    namespace: string,
    after: { dueAt: number; id: string },
    limit: number,
  ): Promise<Array<Pick<JobInstance, 'id' | 'appId' | 'nodeId' | 'dueAt'>>> {
    return (
      this.repo
        .createQueryBuilder('i')
        .select(['i.id', 'i.appId', 'i.nodeId', 'i.dueAt'])
        .where('i.namespace = :namespace AND i.status = :s', { namespace, s: S.DISPATCHED })
        .andWhere('i.started_at IS NULL AND i.dispatched_at = i.due_at AND i.due_at > i.created_at')
        // A staged fire (SCHEDULE, due at its fire time) is findStaged's; a fire's staged retry is due later.
        .andWhere('(i.trigger_source <> :src OR i.due_at <> i.fire_time)', { src: TriggerSource.SCHEDULE })
        .andWhere('(i.due_at > :t OR (i.due_at = :t AND i.id > :id))', { t: after.dueAt, id: after.id })
        .orderBy('i.due_at', 'ASC')
        .addOrderBy('i.id', 'ASC')
        .limit(limit)
        .getMany()
    );
  }

  private hydrate(raw: unknown): JobInstance {
    const from = raw as Record<string, unknown>;
    const row = new JobInstance() as unknown as Record<string, unknown>;
    for (const c of this.readColumns) {
      const v = from[c.databaseName];
      row[c.propertyName] = c.transformer && !Array.isArray(c.transformer) ? c.transformer.from(v) : v;
    }
    return row as unknown as JobInstance;
  }
}
