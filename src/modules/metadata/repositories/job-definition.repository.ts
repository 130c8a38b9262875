import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, LessThan, QueryDeepPartialEntity, Repository } from 'typeorm';
import { ConflictError, NotFoundError } from '../../../common/index.js';
import { JobDefinition, OverlapPolicy, type PausedReason } from '../entities/index.js';
import { isUniqueViolation } from './db-errors.js';
import { marks } from './raw-statement.js';
import { ShardAssignmentRepository } from './shard-assignment.repository.js';

/** Rows changed by a raw UPDATE, for mysql2 ({affectedRows}) and better-sqlite3 ({changes} / [rows, n]). */
function affectedRows(res: unknown): number {
  const r = res as { affectedRows?: number; changes?: number } | [unknown, number];
  if (Array.isArray(r)) return typeof r[1] === 'number' ? r[1] : 0;
  return r.affectedRows ?? r.changes ?? 0;
}

/** A job due within the horizon as the wheel loader reads it: `next` fire (epoch ms), `stage` (see findDueRefs). */
export interface DueRef {
  id: string;
  next: number;
  stage: boolean;
}

/** What a job list keeps besides its owner: `q` in code, description or handler (any case), `enabled`. */
export interface JobListFilter {
  q?: string;
  enabled?: boolean;
}

/** An enabled job's schedule as the fire load reads it (times epoch ms). */
export interface JobSchedule {
  id: string;
  appId: string;
  code: string;
  triggerType: string;
  triggerExpr: string | null;
  timeZone: string;
  nextFireTime: number | null;
}

/** A job opted in to per-job metrics, as the counting processes read it (JobRunMetrics). */
export interface MetricsJob {
  id: string;
  appId: string;
  code: string;
}

/** A write whose per-job metrics slot another job took meanwhile (uq_job_definition_ns_metrics_slot): a 409. */
export class MetricsSlotTaken extends ConflictError {
  constructor(slot: number | null | undefined) {
    super(`metrics slot ${slot} was taken by another job meanwhile: send the request again`, 'metrics');
  }
}

const METRICS_SLOT_DUPLICATE = /(key '(?:[^']*\.)?uq_job_definition_ns_metrics_slot'|job_definition\.metrics_slot)$/;

/** Whether `err` is a unique violation of uq_job_definition_ns_metrics_slot (not of a code that looks like it). */
function isMetricsSlotViolation(err: unknown): boolean {
  return isUniqueViolation(err) && METRICS_SLOT_DUPLICATE.test(String((err as Error).message));
}

/** job_definition I/O. Updates use the `version` column as an optimistic lock. */
@Injectable()
export class JobDefinitionRepository {
  private readonly repo: Repository<JobDefinition>;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly shards: ShardAssignmentRepository,
  ) {
    this.repo = ds.getRepository(JobDefinition);
  }

  /**
   * Inserts `def`; a duplicate key rolls back only this statement, so a caller's unit of work may go on.
   * @throws ConflictError(field code) when the app already has this code in the namespace; MetricsSlotTaken.
   */
  async create(def: JobDefinition, em?: EntityManager): Promise<JobDefinition> {
    const repo = em ? em.getRepository(JobDefinition) : this.repo;
    try {
      await repo.insert(def as QueryDeepPartialEntity<JobDefinition>);
    } catch (err) {
      if (isMetricsSlotViolation(err)) throw new MetricsSlotTaken(def.metricsSlot);
      if (isUniqueViolation(err)) throw new ConflictError(`job code '${def.code}' already exists`, 'code');
      throw err;
    }
    return (await repo.findOneBy({ namespace: def.namespace, id: def.id })) as JobDefinition;
  }

  /** Job `jobId`'s overlap policy, maxConcurrency and enabled as stored now, or null when gone (admission). */
  async findAdmission(
    jobId: string,
  ): Promise<{ overlapPolicy: string; maxConcurrency: number; enabled: boolean } | null> {
    const rows: Array<{ overlap_policy: string; max_concurrency: number | string; enabled: unknown }> =
      await this.ds.query('SELECT overlap_policy, max_concurrency, enabled FROM job_definition WHERE id = ?', [jobId]);
    const r = rows[0];
    if (!r) return null;
    return { overlapPolicy: r.overlap_policy, maxConcurrency: Number(r.max_concurrency), enabled: Boolean(r.enabled) };
  }

  /** Writes `patch` if the row still has `def.version`, bumping it. @throws ConflictError, MetricsSlotTaken. */
  async update(def: JobDefinition, patch: Partial<JobDefinition>, em?: EntityManager): Promise<JobDefinition> {
    let affected: number | undefined;
    const repo = em ? em.getRepository(JobDefinition) : this.repo;
    try {
      const res = await repo
        .createQueryBuilder()
        .update(JobDefinition)
        .set({ ...patch, version: def.version + 1 } as QueryDeepPartialEntity<JobDefinition>)
        .where('id = :id AND version = :v', { id: def.id, v: def.version })
        .execute();
      affected = res.affected;
    } catch (err) {
      if (isMetricsSlotViolation(err)) throw new MetricsSlotTaken(patch.metricsSlot);
      if (isUniqueViolation(err)) throw new ConflictError(`job code '${patch.code}' already exists`, 'code');
      throw err;
    }
    if (affected !== 1) throw new ConflictError(`job '${def.code}' was changed concurrently; read it again and retry`);
    return (await repo.findOneBy({ namespace: def.namespace, id: def.id })) as JobDefinition;
  }

  /** Deletes job `id` with its shard placement, inside `em` when given. @throws NotFoundError */
  async delete(namespace: string, id: string, em?: EntityManager): Promise<void> {
    const res = await (em ? em.getRepository(JobDefinition) : this.repo).delete({ namespace, id });
    if (res.affected !== 1) throw new NotFoundError('job', id);
    await this.shards.deleteJob(em ?? this.ds.manager, id);
  }

  findById(namespace: string, id: string): Promise<JobDefinition | null> {
    return this.repo.findOneBy({ namespace, id });
  }

  /** The job `code` of app `appId` (codes are unique per namespace and app), inside `em` when given. */
  findByCode(namespace: string, appId: string, code: string, em?: EntityManager): Promise<JobDefinition | null> {
    return (em ? em.getRepository(JobDefinition) : this.repo).findOneBy({ namespace, appId, code });
  }

  /** Jobs with `code` of any app in the namespace, at most `limit` (an admin naming a job by code alone). */
  findByCodeAnyApp(namespace: string, code: string, limit: number): Promise<JobDefinition[]> {
    return this.repo.find({ where: { namespace, code }, order: { appId: 'ASC' }, take: limit });
  }

  /**
   * A page of the namespace's jobs by code (then owner): of app `appId`, or of every app when null; `filter.q`
   * keeps those whose code, description or handler contains it (any case), `filter.enabled` those so. An app's page
   * is read in code order from uq_job_definition_ns_app_code (namespace, app_id, code).
   */
  list(
    namespace: string,
    appId: string | null,
    offset: number,
    limit: number,
    filter: JobListFilter = {},
  ): Promise<[JobDefinition[], number]> {
    const qb = this.repo.createQueryBuilder('j').where('j.namespace = :namespace', { namespace });
    if (appId !== null) qb.andWhere('j.appId = :appId', { appId });
    if (filter.enabled !== undefined) qb.andWhere('j.enabled = :enabled', { enabled: filter.enabled });
    if (filter.q !== undefined) {
      const like = (col: string) => `LOWER(${col}) LIKE :q ESCAPE '!'`;
      qb.andWhere(`(${['j.code', 'j.description', 'j.handler'].map(like).join(' OR ')})`, {
        q: `%${filter.q.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`,
      });
    }
    return qb.orderBy('j.code', 'ASC').addOrderBy('j.appId', 'ASC').offset(offset).limit(limit).getManyAndCount();
  }

  /**
   * The schedules of the namespace's enabled jobs that have a next fire (of app `appId`, or every app when null),
   * by code then owner, at most `limit`: what the fire load computes from (raw, the columns it needs).
   */
  async schedulesOf(namespace: string, appId: string | null, limit: number): Promise<JobSchedule[]> {
    const rows: Array<Record<string, unknown>> = await this.ds.query(
      'SELECT id, app_id, code, trigger_type, trigger_expr, time_zone, next_fire_time FROM job_definition' +
        ` WHERE namespace = ?${appId === null ? '' : ' AND app_id = ?'} AND enabled = 1` +
        ' AND next_fire_time IS NOT NULL ORDER BY code, app_id LIMIT ?',
      [namespace, ...(appId === null ? [] : [appId]), limit],
    );
    return rows.map((r) => ({
      id: String(r.id),
      appId: String(r.app_id),
      code: String(r.code),
      triggerType: String(r.trigger_type),
      triggerExpr: (r.trigger_expr as string | null) ?? null,
      timeZone: String(r.time_zone),
      nextFireTime: r.next_fire_time === null ? null : Number(r.next_fire_time),
    }));
  }

  /** The handlers of app `appId`'s jobs in the namespace, each once (uq_job_definition_ns_app_code; capped jobs). */
  async handlersOf(namespace: string, appId: string): Promise<string[]> {
    const rows: Array<{ handler: string }> = await this.ds.query(
      'SELECT DISTINCT handler FROM job_definition WHERE namespace = ? AND app_id = ?',
      [namespace, appId],
    );
    return rows.map((r) => String(r.handler));
  }

  /** The per-job metrics slots the namespace's jobs hold, inside `em` (uq_job_definition_ns_metrics_slot). */
  async metricsSlotsInUse(em: EntityManager, namespace: string): Promise<number[]> {
    const rows: Array<{ slot: number | string }> = await em.query(
      'SELECT metrics_slot AS slot FROM job_definition WHERE namespace = ? AND metrics_slot IS NOT NULL',
      [namespace],
    );
    return rows.map((r) => Number(r.slot));
  }

  /** The namespace's jobs with per-job metrics on, by slot, at most `limit` (uq_job_definition_ns_metrics_slot). */
  async withMetrics(namespace: string, limit: number): Promise<MetricsJob[]> {
    const rows: Array<{ id: string; app_id: string; code: string }> = await this.ds.query(
      'SELECT id, app_id, code FROM job_definition WHERE namespace = ? AND metrics_slot IS NOT NULL' +
        ' ORDER BY metrics_slot LIMIT ?',
      [namespace, limit],
    );
    return rows.map((r) => ({ id: String(r.id), appId: String(r.app_id), code: String(r.code) }));
  }

  /**
   * Inside `em`, app `appId`'s jobs in every namespace (clients are shared by every namespace of a database) that are
   * enabled (`reason` undefined) or paused by the system for `reason`, oldest first: what disabling or enabling its
   * client pauses or resumes. Bounded by the app's job cap per namespace.
   */
  ownedForClient(em: EntityManager, appId: string, reason?: PausedReason): Promise<JobDefinition[]> {
    const where = reason === undefined ? { appId, enabled: true } : { appId, enabled: false, pausedReason: reason };
    return em.getRepository(JobDefinition).find({ where, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** How many jobs app `appId` owns in the namespace, inside `em`. */
  countOwned(em: EntityManager, namespace: string, appId: string): Promise<number> {
    return em.getRepository(JobDefinition).countBy({ namespace, appId });
  }

  /**
   * Enabled jobs due by `until`, keyset-paged by (next_fire_time, id): the wheel loader's light read
   * (docs/trigger.md). `stage`: overlap ALLOW and no maxConcurrency, so nothing depends on the fire time.
   */
  async findDueRefs(
    namespace: string,
    until: number,
    limit: number,
    after?: { next: number; id: string },
  ): Promise<DueRef[]> {
    const qb = this.repo
      .createQueryBuilder('j')
      .select(['j.id AS id', 'j.next_fire_time AS next', 'j.overlap_policy AS overlap', 'j.max_concurrency AS maxConc'])
      .where('j.namespace = :namespace AND j.enabled = :en AND j.next_fire_time <= :until', {
        namespace,
        en: true,
        until,
      });
    if (after) {
      qb.andWhere('(j.next_fire_time > :an OR (j.next_fire_time = :an AND j.id > :ai))', {
        an: after.next,
        ai: after.id,
      });
    }
    const rows = await qb
      .orderBy('j.next_fire_time', 'ASC')
      .addOrderBy('j.id', 'ASC')
      .limit(limit)
      .getRawMany<{ id: string; next: string | number; overlap: string; maxConc: string | number }>();
    return rows.map((r) => ({
      id: r.id,
      next: Number(r.next),
      stage: r.overlap === OverlapPolicy.ALLOW && Number(r.maxConc) === 0,
    }));
  }

  findByIds(namespace: string, ids: string[]): Promise<JobDefinition[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.repo.findBy({ namespace, id: In(ids) });
  }

  /**
   * Reads jobs inside the firing unit of work, locking their rows in id order (MySQL FOR UPDATE; SQLite runs one
   * unit at a time), the lock a job edit takes too: an edit and a firing page of one job never interleave.
   */
  lockForFiring(em: EntityManager, namespace: string, ids: string[]): Promise<JobDefinition[]> {
    if (ids.length === 0) return Promise.resolve([]);
    const qb = em
      .getRepository(JobDefinition)
      .createQueryBuilder('j')
      .where('j.namespace = :namespace AND j.id IN (:...ids)', { namespace, ids })
      .orderBy('j.id', 'ASC');
    if (this.ds.options.type === 'mysql') qb.setLock('pessimistic_write');
    return qb.getMany();
  }

  /** Enabled jobs whose next_fire_time passed before `before` (due but not fired), most overdue first. */
  findOverdue(namespace: string, before: number, limit: number): Promise<JobDefinition[]> {
    return this.repo.find({
      where: { namespace, enabled: true, nextFireTime: LessThan(before) },
      order: { nextFireTime: 'ASC' },
      take: limit,
    });
  }

  /** Moves a job's schedule forward inside the firing unit of work, only if next_fire_time is still `expectedNext`. */
  async advance(
    em: EntityManager,
    id: string,
    expectedNext: number,
    patch: Pick<JobDefinition, 'nextFireTime'> & Partial<JobDefinition>,
  ): Promise<boolean> {
    const res = await em
      .createQueryBuilder()
      .update(JobDefinition)
      .set(patch as QueryDeepPartialEntity<JobDefinition>)
      .where('id = :id AND next_fire_time = :n', { id, n: expectedNext })
      .execute();
    return res.affected === 1;
  }

  /**
   * {@link advance} of many jobs in one statement (each from `expected` to `next`, `last` as its last fire).
   * @returns the number of rows changed.
   */
  async advanceMany(
    em: EntityManager,
    moves: Array<{ id: string; expected: number; next: number | null; last: number }>,
    now: number,
  ): Promise<number> {
    if (moves.length === 0) return 0;
    const nextCase = moves.map(() => 'WHEN ? THEN ?').join(' ');
    const params: unknown[] = [];
    for (const m of moves) params.push(m.id, m.next);
    for (const m of moves) params.push(m.id, m.last);
    params.push(now);
    for (const m of moves) params.push(m.id, m.expected);
    const where = moves.map(() => '(id = ? AND next_fire_time = ?)').join(' OR ');
    const res = await em.query(
      `UPDATE job_definition SET next_fire_time = CASE id ${nextCase} END, last_fire_time = CASE id ${nextCase} END,
         updated_at = ? WHERE ${where}`,
      params,
    );
    return affectedRows(res);
  }

  /**
   * Sets each job's next_fire_time back to `next` inside `em` (staged fires taken back, docs/trigger.md "Staging"),
   * enabled and not completed, version bumped like an edit. @returns the number of rows changed.
   */
  async rewind(em: EntityManager, moves: Array<{ id: string; next: number }>, now: number): Promise<number> {
    if (moves.length === 0) return 0;
    const params: unknown[] = moves.flatMap((m) => [m.id, m.next]);
    params.push(now, ...moves.map((m) => m.id));
    const res = await em.query(
      `UPDATE job_definition SET next_fire_time = CASE id ${moves.map(() => 'WHEN ? THEN ?').join(' ')} END,
         enabled = 1, completed_at = NULL, version = version + 1, updated_at = ? WHERE id IN (${marks(moves.length)})`,
      params,
    );
    return affectedRows(res);
  }

  /** Sets last_fire_time inside `em` (staged fires removed: it goes back to the latest fire left). */
  async setLastFire(em: EntityManager, id: string, lastFireTime: number | null): Promise<void> {
    await em.getRepository(JobDefinition).update({ id }, { lastFireTime });
  }

  /**
   * Marks ONE_SHOT jobs completed inside the firing transaction (docs/trigger.md "Schedules"): disabled for good,
   * no next fire, completed_at = `now`.
   */
  async completeOneShots(em: EntityManager, ids: string[], now: number): Promise<void> {
    if (ids.length === 0) return;
    await em
      .getRepository(JobDefinition)
      .update({ id: In(ids) }, { enabled: false, nextFireTime: null, completedAt: now, updatedAt: now });
  }

  /** Sets next_fire_time outside firing (FIXED_DELAY after a finish, an edit that put staged fires back). */
  async setNextFire(id: string, nextFireTime: number | null, now: number, em?: EntityManager): Promise<void> {
    await (em ? em.getRepository(JobDefinition) : this.repo).update({ id }, { nextFireTime, updatedAt: now });
  }
}
