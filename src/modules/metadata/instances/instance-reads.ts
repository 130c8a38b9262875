import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, type SelectQueryBuilder } from 'typeorm';
import { JobInstance } from '../entities/job-instance.entity.js';
import { marks, STATEMENT_ROWS } from '../repositories/raw-statement.js';
import { FINAL_STATUSES, JobInstanceStatus as S } from '../state-machine/job-instance-status.js';
import { InstanceTable, UNFINISHED } from './instance-table.js';

/** A job's newest instance by fire time (then highest shard), as a job's view shows it. Times epoch ms. */
export interface LastRun {
  jobId: string;
  id: string;
  status: S;
  fireTime: number;
  startedAt: number | null;
  finishedAt: number | null;
}

/** Whose rows a read counts: of `namespace`, of app `appId` or, null, of every app. */
export interface InstanceScope {
  namespace: string;
  appId: string | null;
}

/** Which tasks (instances of no job) a list reads; `from` and `to` bound created_at (ms, inclusive). */
export interface TaskFilter extends InstanceScope {
  status?: S;
  handler?: string;
  from?: number;
  to?: number;
}

/** How many unfinished instances of one app run a handler in one status on one node (null: on none yet). */
export interface UnfinishedGroup {
  handler: string;
  nodeId: string | null;
  status: S;
  count: number;
}

/** A RUNNING instance as the overview shows it. */
export type RunningRow = Pick<
  JobInstance,
  | 'id'
  | 'requestId'
  | 'appId'
  | 'jobId'
  | 'jobCode'
  | 'handler'
  | 'nodeId'
  | 'attempt'
  | 'startedAt'
  | 'progress'
  | 'progressNote'
  | 'progressAt'
>;

const HOUR_MS = 3_600_000;
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
/** ` AND app_id = ?` and its parameter when the scope names one app. */
const ofApp = (scope: InstanceScope): [string, unknown[]] =>
  scope.appId === null ? ['', []] : [' AND app_id = ?', [scope.appId]];

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

  /**
   * App `appId`'s unfinished instances in `namespace`, counted by handler, node and status (the (app_id, status)
   * index; bounded by what the app may have waiting): the handlers it uses now and its load on each node.
   */
  async unfinishedOfAppByNode(namespace: string, appId: string): Promise<UnfinishedGroup[]> {
    const res = await this.t.run(
      undefined,
      'SELECT handler, node_id, status, COUNT(*) AS n FROM job_instance' +
        ` WHERE app_id = ? AND status IN (${marks(UNFINISHED.length)}) AND namespace = ?` +
        ' GROUP BY handler, node_id, status',
      [appId, ...UNFINISHED, namespace],
    );
    return ((res.records ?? []) as Array<Record<string, unknown>>).map((r) => ({
      handler: String(r.handler),
      nodeId: (r.node_id as string | null) ?? null,
      status: r.status as S,
      count: Number(r.n),
    }));
  }

  /**
   * The newest instance of each of `jobIds` by fire time, then highest shard (the first of its instance list), by
   * job id; one statement: a LIMIT 1 seek per job on uq_job_instance_fire (job_id, fire_time, shard_index).
   */
  async lastRunsOf(jobIds: string[]): Promise<Map<string, LastRun>> {
    const out = new Map<string, LastRun>();
    for (let i = 0; i < jobIds.length; i += STATEMENT_ROWS) {
      const part = jobIds.slice(i, i + STATEMENT_ROWS);
      const newest =
        'SELECT (SELECT x.id FROM job_instance x WHERE x.job_id = j.id ORDER BY x.fire_time DESC, x.shard_index DESC' +
        ` LIMIT 1) AS last_id FROM job_definition j WHERE j.id IN (${marks(part.length)})`;
      const sql =
        'SELECT i.id, i.job_id, i.status, i.fire_time, i.started_at, i.finished_at' +
        ` FROM (${newest}) l JOIN job_instance i ON i.id = l.last_id`;
      for (const r of ((await this.t.run(undefined, sql, part)).records ?? []) as Array<Record<string, unknown>>)
        out.set(String(r.job_id), {
          jobId: String(r.job_id),
          id: String(r.id),
          status: r.status as S,
          fireTime: Number(r.fire_time),
          startedAt: num(r.started_at),
          finishedAt: num(r.finished_at),
        });
    }
    return out;
  }

  /**
   * Tasks (instances of no job) matching `f`, newest created first then by id: `limit` of them after skipping
   * `offset`, or after `after` (keyset). The app's rows come from ix_job_instance_app_status (app_id, status).
   */
  listTasks(
    f: TaskFilter,
    offset: number,
    limit: number,
    after?: { createdAt: number; id: string },
  ): Promise<JobInstance[]> {
    const qb = tasksWhere(this.t.repo.createQueryBuilder('i'), f);
    if (after)
      qb.andWhere('(i.createdAt < :ac OR (i.createdAt = :ac AND i.id < :ai))', { ac: after.createdAt, ai: after.id });
    return qb.orderBy('i.createdAt', 'DESC').addOrderBy('i.id', 'DESC').offset(offset).limit(limit).getMany();
  }

  /** How many tasks match `f` (every page). */
  countTasks(f: TaskFilter): Promise<number> {
    return tasksWhere(this.t.repo.createQueryBuilder('i'), f).getCount();
  }

  /**
   * Instances of `scope` in a final status whose finished_at is in [from, to] (ms), by hour (finished_at rounded
   * down to the hour, UTC) and status; the range is read from ix_job_instance_finished (finished_at).
   */
  async finishedByHour(
    scope: InstanceScope,
    from: number,
    to: number,
  ): Promise<Array<{ hour: number; status: S; count: number }>> {
    const [app, appParams] = ofApp(scope);
    const hour = `finished_at - (finished_at % ${HOUR_MS})`;
    const res = await this.t.run(
      undefined,
      `SELECT ${hour} AS hour, status, COUNT(*) AS n FROM job_instance WHERE finished_at >= ? AND finished_at <= ?` +
        ` AND status IN (${marks(FINAL.length)}) AND namespace = ?${app} GROUP BY ${hour}, status`,
      [from, to, ...FINAL, scope.namespace, ...appParams],
    );
    return ((res.records ?? []) as Array<{ hour: unknown; status: S; n: unknown }>).map((r) => ({
      hour: Number(r.hour),
      status: r.status,
      count: Number(r.n),
    }));
  }

  /** How many instances of `scope` are in each of `statuses` now (ix_job_instance_status_fire, or app_status). */
  async countByStatus(scope: InstanceScope, statuses: readonly S[]): Promise<Map<S, number>> {
    const [app, appParams] = ofApp(scope);
    const res = await this.t.run(
      undefined,
      `SELECT status, COUNT(*) AS n FROM job_instance WHERE status IN (${marks(statuses.length)}) AND namespace = ?` +
        `${app} GROUP BY status`,
      [...statuses, scope.namespace, ...appParams],
    );
    return new Map(((res.records ?? []) as Array<{ status: S; n: unknown }>).map((r) => [r.status, Number(r.n)]));
  }

  /** Up to `limit` RUNNING instances of `scope`, newest start first (then by id). */
  async runningNow(scope: InstanceScope, limit: number): Promise<RunningRow[]> {
    const [app, appParams] = ofApp(scope);
    const res = await this.t.run(
      undefined,
      'SELECT id, request_id, app_id, job_id, job_code, handler, node_id, attempt, started_at, progress,' +
        ` progress_note, progress_at FROM job_instance WHERE status = ? AND namespace = ?${app}` +
        ' ORDER BY started_at DESC, id DESC LIMIT ?',
      [S.RUNNING, scope.namespace, ...appParams, limit],
    );
    return ((res.records ?? []) as Array<Record<string, unknown>>).map((r) => ({
      id: String(r.id),
      requestId: String(r.request_id),
      appId: String(r.app_id),
      jobId: (r.job_id as string | null) ?? null,
      jobCode: (r.job_code as string | null) ?? null,
      handler: String(r.handler),
      nodeId: (r.node_id as string | null) ?? null,
      attempt: Number(r.attempt),
      startedAt: num(r.started_at),
      progress: num(r.progress),
      progressNote: (r.progress_note as string | null) ?? null,
      progressAt: num(r.progress_at),
    }));
  }
}

const FINAL = [...FINAL_STATUSES];

/** `qb` (alias i) narrowed to the tasks `f` names. */
function tasksWhere(qb: SelectQueryBuilder<JobInstance>, f: TaskFilter): SelectQueryBuilder<JobInstance> {
  qb.where('i.namespace = :ns AND i.jobId IS NULL', { ns: f.namespace });
  if (f.appId !== null) qb.andWhere('i.appId = :app', { app: f.appId });
  if (f.status !== undefined) qb.andWhere('i.status = :status', { status: f.status });
  if (f.handler !== undefined) qb.andWhere('i.handler = :handler', { handler: f.handler });
  if (f.from !== undefined) qb.andWhere('i.createdAt >= :from', { from: f.from });
  if (f.to !== undefined) qb.andWhere('i.createdAt <= :to', { to: f.to });
  return qb;
}
