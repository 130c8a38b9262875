import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { cutText, newId } from '../../../common/index.js';
import { JobAttempt } from '../entities/index.js';
import { AttemptStatus, type AttemptEnd } from '../state-machine/attempt-status.js';
import { insertIgnoreVerb, runStatement, STATEMENT_ROWS } from './raw-statement.js';
import { deleteOfInstances } from './retention-rows.js';

/** An attempt to open: instance, attempt number, and the node and fencing token it runs under. */
export interface StartedAttempt {
  instanceId: string;
  attempt: number;
  nodeId: string;
  fencingToken: number;
}

/** How one attempt ended, with what identifies it (node, fencing token, start): its whole row is written at its end. */
export interface EndedAttempt {
  instanceId: string;
  attempt: number;
  nodeId: string;
  fencingToken: number;
  /** When the attempt was claimed (the instance row's started_at), epoch ms. */
  startedAt: number;
  status: AttemptEnd;
  error: string | null;
  /** When the handler returned (epoch ms), null when it had not yet (recorded apart when it does). */
  handlerEndedAt?: number | null;
}

/** How a handler really ended, written when it was not part of its attempt's finishing write. */
export interface HandlerEnd {
  instanceId: string;
  attempt: number;
  fencingToken: number;
  /** When the handler returned, epoch ms UTC. */
  endedAt: number;
  /** Set when it returned after its outcome was decided; with `unlessEndedAs`, unless the row closed so. */
  late: { status: 'SUCCESS' | 'FAILED'; error: string | null; unlessEndedAs?: AttemptEnd } | null;
}

const MAX_ERROR = 4000;
const MAX_LATE_ERROR = 1024;

/** All job_attempt I/O: one row per attempt, traceable to a node and a fencing token. */
@Injectable()
export class JobAttemptRepository {
  private readonly repo: Repository<JobAttempt>;

  constructor(@InjectDataSource() private readonly ds: DataSource) {
    this.repo = ds.getRepository(JobAttempt);
  }

  /** Records the start of an attempt (status RUNNING). A second start of the same attempt is ignored. */
  async start(
    instanceId: string,
    attempt: number,
    nodeId: string,
    fencingToken: number,
    startedAt: number,
    em?: EntityManager,
  ): Promise<void> {
    await this.on(em)
      .createQueryBuilder()
      .insert()
      .values({
        id: newId(),
        instanceId,
        attempt,
        nodeId,
        fencingToken,
        status: AttemptStatus.RUNNING,
        startedAt,
        finishedAt: null,
        error: null,
      })
      .orIgnore()
      .execute();
  }

  /** {@link start} of many attempts at `now`: one multi-row INSERT IGNORE per STATEMENT_ROWS. */
  async startMany(em: EntityManager | undefined, started: StartedAttempt[], now: number): Promise<void> {
    for (let i = 0; i < started.length; i += STATEMENT_ROWS) {
      const part = started.slice(i, i + STATEMENT_ROWS);
      await runStatement(
        this.ds,
        em,
        `${insertIgnoreVerb(this.ds)} INTO job_attempt
           (id, instance_id, attempt, node_id, fencing_token, status, started_at, finished_at, error)
         VALUES ${part.map(() => '(?, ?, ?, ?, ?, ?, ?, NULL, NULL)').join(', ')}`,
        part.flatMap((a) => [newId(), a.instanceId, a.attempt, a.nodeId, a.fencingToken, AttemptStatus.RUNNING, now]),
      );
    }
  }

  /** Records how an attempt ended (error cut to 4,000 characters); only a RUNNING attempt row changes. */
  async finish(
    instanceId: string,
    attempt: number,
    status: AttemptEnd,
    error: string | null,
    finishedAt: number,
    em?: EntityManager,
  ): Promise<void> {
    await this.on(em)
      .createQueryBuilder()
      .update(JobAttempt)
      .set({ status, error: error ? cutText(error, MAX_ERROR) : null, finishedAt })
      .where('instance_id = :instanceId AND attempt = :attempt AND status = :running', {
        instanceId,
        attempt,
        running: AttemptStatus.RUNNING,
      })
      .execute();
  }

  /**
   * Writes many ended attempts, one multi-row statement per STATEMENT_ROWS: a new row each (the claim writes none:
   * while an attempt runs, its instance row is its record), or, when a row of that attempt exists and is still
   * RUNNING (written by {@link start}, {@link recordHandlerEnd} or an older version's claim), it is closed; one
   * already closed is left as it is. Safe to repeat. The instance ids must be distinct.
   */
  async endMany(em: EntityManager | undefined, ended: EndedAttempt[], now: number): Promise<void> {
    const mysql = this.ds.options.type === 'mysql';
    for (let i = 0; i < ended.length; i += STATEMENT_ROWS) {
      const part = ended.slice(i, i + STATEMENT_ROWS);
      const ifRunning = (c: string) => `${c} = IF(status = ?, VALUES(${c}), ${c})`;
      // MySQL applies the assignments in order: status last, so each test reads the old status.
      const onConflict = mysql
        ? `ON DUPLICATE KEY UPDATE ${['error', 'handler_ended_at', 'finished_at', 'status'].map(ifRunning).join(', ')}`
        : `ON CONFLICT (instance_id, attempt) DO UPDATE SET status = excluded.status, error = excluded.error,
             handler_ended_at = excluded.handler_ended_at, finished_at = excluded.finished_at
           WHERE job_attempt.status = ?`;
      const running = mysql ? Array<string>(4).fill(AttemptStatus.RUNNING) : [AttemptStatus.RUNNING];
      await runStatement(
        this.ds,
        em,
        `INSERT INTO job_attempt
           (id, instance_id, attempt, node_id, fencing_token, status, started_at, finished_at, error, handler_ended_at)
         VALUES ${part.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')} ${onConflict}`,
        [
          ...part.flatMap((a) => [
            newId(),
            a.instanceId,
            a.attempt,
            a.nodeId,
            a.fencingToken,
            a.status,
            a.startedAt,
            now,
            a.error ? cutText(a.error, MAX_ERROR) : null,
            a.handlerEndedAt ?? null,
          ]),
          ...running,
        ],
      );
    }
  }

  /**
   * The attempts of one instance, first attempt first; a running attempt that has no row yet (rows are written at
   * an attempt's end) is read from the instance row: RUNNING, its node, token and start.
   */
  async listForInstance(instanceId: string): Promise<JobAttempt[]> {
    const rows = await this.repo.find({ where: { instanceId }, order: { attempt: 'ASC' } });
    const res = await runStatement(
      this.ds,
      undefined,
      'SELECT attempt, node_id, fencing_token, started_at FROM job_instance WHERE id = ? AND status = ?',
      [instanceId, AttemptStatus.RUNNING],
    );
    const now = (res.records ?? [])[0] as Record<string, unknown> | undefined;
    if (!now || rows.some((r) => r.attempt === Number(now.attempt))) return rows;
    const running = Object.assign(new JobAttempt(), {
      id: '',
      instanceId,
      attempt: Number(now.attempt),
      nodeId: String(now.node_id ?? 'unknown'),
      fencingToken: Number(now.fencing_token),
      status: AttemptStatus.RUNNING,
      startedAt: Number(now.started_at),
      finishedAt: null,
      error: null,
      handlerEndedAt: null,
      lateStatus: null,
      lateError: null,
      overlapsPrevious: false,
    });
    return [...rows, running];
  }

  /**
   * Records a handler's real end on its attempt row (and the late outcome, if any), then marks the later attempts
   * of the same instance that started before that end as overlapping it. Never touches the instance.
   */
  async recordHandlerEnd(end: HandlerEnd): Promise<void> {
    await runStatement(
      this.ds,
      undefined,
      `UPDATE job_attempt SET handler_ended_at = ?,
         late_status = CASE WHEN status = ? THEN NULL ELSE ? END, late_error = CASE WHEN status = ? THEN NULL ELSE ? END
       WHERE instance_id = ? AND attempt = ? AND fencing_token = ?`,
      [
        end.endedAt,
        end.late?.unlessEndedAs ?? null,
        end.late?.status ?? null,
        end.late?.unlessEndedAs ?? null,
        end.late?.error ? cutText(end.late.error, MAX_LATE_ERROR) : null,
        end.instanceId,
        end.attempt,
        end.fencingToken,
      ],
    );
    // A later attempt still running has no row yet: written here from its instance row, marked, closed at its end.
    await runStatement(
      this.ds,
      undefined,
      `${insertIgnoreVerb(this.ds)} INTO job_attempt
         (id, instance_id, attempt, node_id, fencing_token, status, started_at, overlaps_previous)
       SELECT ?, id, attempt, COALESCE(node_id, 'unknown'), fencing_token, ?, started_at, ? FROM job_instance
       WHERE id = ? AND status = ? AND fencing_token > ? AND started_at < ?`,
      [newId(), AttemptStatus.RUNNING, 1, end.instanceId, AttemptStatus.RUNNING, end.fencingToken, end.endedAt],
    );
    await runStatement(
      this.ds,
      undefined,
      `UPDATE job_attempt SET overlaps_previous = ?
       WHERE instance_id = ? AND fencing_token > ? AND started_at < ? AND overlaps_previous = ?`,
      [1, end.instanceId, end.fencingToken, end.endedAt, 0],
    );
  }

  private on(em: EntityManager | undefined): Repository<JobAttempt> {
    return em ? em.getRepository(JobAttempt) : this.repo;
  }

  /** Retention: deletes the attempts of instances `instanceIds`, `batch` at a time. @returns rows removed. */
  removeOfInstances(instanceIds: string[], batch: number): Promise<number> {
    return deleteOfInstances(this.ds, 'job_attempt', instanceIds, batch);
  }
}
