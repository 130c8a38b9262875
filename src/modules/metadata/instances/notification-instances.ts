import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { marks } from '../repositories/raw-statement.js';
import { JobInstanceStatus as S } from '../state-machine/job-instance-status.js';
import { InstanceTable } from './instance-table.js';

/** An instance as the notification evaluator and scans read it (docs/notifications.md). Times epoch ms UTC. */
export interface NotifiedRun {
  id: string;
  namespace: string;
  appId: string;
  requestId: string;
  jobId: string | null;
  jobCode: string | null;
  handler: string;
  fireTime: number;
  status: S;
  attempt: number;
  error: string | null;
  startedAt: number | null;
  finishedAt: number | null;
  traceId: string;
  traceparent: string | null;
}

const COLUMNS =
  'id, namespace, app_id, request_id, job_id, job_code, handler, fire_time, status, attempt, error, started_at,' +
  ' finished_at, trace_id, traceparent';
/** The outcomes a streak is made of: a cancel (a skipped fire, a user's cancel) neither breaks nor extends one. */
const OUTCOMES = [S.SUCCESS, S.FAILED, S.TIMEOUT];

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

function toRun(r: Record<string, unknown>): NotifiedRun {
  return {
    id: String(r.id),
    namespace: String(r.namespace),
    appId: String(r.app_id),
    requestId: String(r.request_id),
    jobId: (r.job_id as string | null) ?? null,
    jobCode: (r.job_code as string | null) ?? null,
    handler: String(r.handler),
    fireTime: Number(r.fire_time),
    status: r.status as S,
    attempt: Number(r.attempt),
    error: (r.error as string | null) ?? null,
    startedAt: num(r.started_at),
    finishedAt: num(r.finished_at),
    traceId: String(r.trace_id),
    traceparent: (r.traceparent as string | null) ?? null,
  };
}

/**
 * The job_instance reads of notifications (docs/notifications.md "Events"): the instances of events, a job's
 * latest outcomes up to a fire (streaks, recoveries) and the job runs not over yet within a fire-time window
 * (deadlines, late starts). Each reads through an index and is bounded.
 */
@Injectable()
export class NotificationInstances {
  private readonly t: InstanceTable;

  constructor(@InjectDataSource() ds: DataSource) {
    this.t = InstanceTable.of(ds);
  }

  /** The instances of `ids` that still exist (primary key). */
  async byIds(ids: readonly string[]): Promise<NotifiedRun[]> {
    if (ids.length === 0) return [];
    const sql = `SELECT ${COLUMNS} FROM job_instance WHERE id IN (${marks(ids.length)})`;
    const res = await this.t.run(undefined, sql, [...ids]);
    return ((res.records ?? []) as Record<string, unknown>[]).map(toRun);
  }

  /**
   * The newest `limit` outcomes (SUCCESS, FAILED, TIMEOUT) of job `jobId` fired at or before `fireTime`, newest
   * first (uq_job_instance_fire: job_id, fire_time).
   */
  async outcomesUpTo(jobId: string, fireTime: number, limit: number): Promise<NotifiedRun[]> {
    const sql =
      `SELECT ${COLUMNS} FROM job_instance WHERE job_id = ? AND fire_time <= ? AND status IN (${marks(3)})` +
      ' ORDER BY fire_time DESC, shard_index DESC LIMIT ?';
    const res = await this.t.run(undefined, sql, [jobId, fireTime, ...OUTCOMES, limit]);
    return ((res.records ?? []) as Record<string, unknown>[]).map(toRun);
  }

  /**
   * Up to `limit` job runs of `namespace` in `status` fired within [`from`, `to`] (epoch ms), oldest first
   * (ix_job_instance_status_fire: status, fire_time).
   */
  async jobRunsIn(namespace: string, status: S, from: number, to: number, limit: number): Promise<NotifiedRun[]> {
    const sql =
      `SELECT ${COLUMNS} FROM job_instance WHERE status = ? AND fire_time >= ? AND fire_time <= ? AND namespace = ?` +
      ' AND job_id IS NOT NULL ORDER BY fire_time LIMIT ?';
    const res = await this.t.run(undefined, sql, [status, from, to, namespace, limit]);
    return ((res.records ?? []) as Record<string, unknown>[]).map(toRun);
  }
}
