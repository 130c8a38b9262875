import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { newId } from '../../../common/index.js';
import { JobInstance } from '../entities/index.js';
import { JobInstanceStatus as S } from '../state-machine/job-instance-status.js';
import { assertTransition } from '../state-machine/transitions.js';
import { runStatement, type StatementResult } from './raw-statement.js';

/** One instance an executor claimed: the row as it was read (DISPATCHED) and the fencing token its claim issued. */
export interface ClaimedInstance {
  row: JobInstance;
  fencingToken: number;
}

/** A successful attempt to record: the instance, the attempt and token it ran under, and its (bounded) result. */
export interface SucceededAttempt {
  id: string;
  attempt: number;
  fencingToken: number;
  result: unknown;
}

/** How one attempt row ends. */
export interface EndedAttempt {
  instanceId: string;
  attempt: number;
  status: string;
  error: string | null;
}

/** Statements are cut into groups of this many rows (placeholders stay far below MySQL's and SQLite's limits). */
const CHUNK = 500;

/**
 * The executor's hot path in SQL (DESIGN §4, §7), k instances per statement instead of one: claim k rows
 * and open their attempt rows, then close k successful attempts and their rows. Every write keeps the
 * per-row guards of {@link JobInstanceRepository.transition} (status, node, attempt, fencing token) in
 * one `CASE id WHEN … THEN … END` condition, so a row another writer moved is simply not matched; when
 * fewer rows matched than were asked, the winners are read back inside the same transaction.
 *
 * Fixed SQL text through the query runner rather than TypeORM's query builder: the builder cost about a
 * third of an executor's CPU (bench/README "Where the time goes"). Portable across MySQL and SQLite.
 * Methods take the transaction's `em` (JobInstanceRepository.together); without one each statement
 * commits on its own.
 */
@Injectable()
export class ExecutionLedgerRepository {
  private readonly columns;
  private readonly resultColumn;

  constructor(@InjectDataSource() private readonly ds: DataSource) {
    this.columns = ds.getMetadata(JobInstance).columns;
    this.resultColumn = this.columns.find((c) => c.propertyName === 'result')!;
  }

  /** The rows of `ids` that exist, whole (one SELECT). */
  async findMany(ids: string[], em?: EntityManager): Promise<JobInstance[]> {
    const out: JobInstance[] = [];
    for (let i = 0; i < ids.length; i += CHUNK) {
      const part = ids.slice(i, i + CHUNK);
      const raw = (await this.run(em, `SELECT * FROM job_instance WHERE id IN (${marks(part.length)})`, part)).records ?? [];
      for (const r of raw) out.push(this.hydrate(r as Record<string, unknown>));
    }
    return out;
  }

  /**
   * DISPATCHED→RUNNING of `rows` (as read) for `nodeId` in one UPDATE: each row only if it is still
   * DISPATCHED to this node at the attempt and fencing token it was read with; its token becomes
   * token+1, its lease `leaseUntil`, its start `now`. Then one multi-row INSERT IGNORE opens the
   * job_attempt row of each winner. Run inside one transaction so a claim never exists without its attempt.
   * @returns the rows this call claimed, with their new fencing token.
   */
  async claim(em: EntityManager | undefined, rows: JobInstance[], nodeId: string, now: number, leaseUntil: number): Promise<ClaimedInstance[]> {
    assertTransition(S.DISPATCHED, S.RUNNING);
    const out: ClaimedInstance[] = [];
    for (let i = 0; i < rows.length; i += CHUNK) {
      const part = rows.slice(i, i + CHUNK);
      const ids = part.map((r) => r.id);
      const guard = part.flatMap((r) => [r.id, r.attempt, r.fencingToken]);
      const res = await this.run(em,
        `UPDATE job_instance SET status = ?, fencing_token = fencing_token + 1, lease_until = ?, started_at = ?, updated_at = ?
         WHERE id IN (${marks(ids.length)}) AND status = ? AND node_id = ?
           AND CASE id ${part.map(() => 'WHEN ? THEN (attempt = ? AND fencing_token = ?)').join(' ')} END`,
        [S.RUNNING, leaseUntil, now, now, ...ids, S.DISPATCHED, nodeId, ...guard]);
      let won = part;
      if (res.affected !== part.length) {
        const back = await this.run(em,
          `SELECT id FROM job_instance WHERE id IN (${marks(ids.length)}) AND status = ? AND node_id = ? AND started_at = ?
             AND CASE id ${part.map(() => 'WHEN ? THEN fencing_token = ?').join(' ')} END`,
          [...ids, S.RUNNING, nodeId, now, ...part.flatMap((r) => [r.id, r.fencingToken + 1])]);
        const ok = new Set((back.records ?? []).map((r) => (r as { id: string }).id));
        won = part.filter((r) => ok.has(r.id));
      }
      if (won.length === 0) continue;
      await this.run(em,
        `${this.ds.options.type === 'mysql' ? 'INSERT IGNORE' : 'INSERT OR IGNORE'} INTO job_attempt
           (id, instance_id, attempt, node_id, fencing_token, status, started_at, finished_at, error)
         VALUES ${won.map(() => '(?, ?, ?, ?, ?, ?, ?, NULL, NULL)').join(', ')}`,
        won.flatMap((r) => [newId(), r.id, r.attempt, nodeId, r.fencingToken + 1, 'RUNNING', now]));
      for (const row of won) out.push({ row, fencingToken: row.fencingToken + 1 });
    }
    return out;
  }

  /**
   * RUNNING→SUCCESS of many attempts in one UPDATE, each only while the row is still RUNNING at its
   * attempt and fencing token (a stale token loses, DESIGN §7): result set, error and lease cleared,
   * `finished_at = now`. Idempotent for a retry with the same `now` (a row this call already finished is
   * counted as won again).
   * @returns the instance ids whose write won.
   */
  async succeed(em: EntityManager | undefined, done: SucceededAttempt[], now: number): Promise<Set<string>> {
    assertTransition(S.RUNNING, S.SUCCESS);
    const won = new Set<string>();
    for (let i = 0; i < done.length; i += CHUNK) {
      const part = done.slice(i, i + CHUNK);
      const ids = part.map((d) => d.id);
      const results = part.flatMap((d) => [d.id, this.resultColumn.transformer ? (this.resultColumn.transformer as { to(v: unknown): unknown }).to(d.result) ?? null : d.result]);
      const res = await this.run(em,
        `UPDATE job_instance SET status = ?, result = CASE id ${part.map(() => 'WHEN ? THEN ?').join(' ')} END,
           error = NULL, lease_until = NULL, finished_at = ?, updated_at = ?
         WHERE id IN (${marks(ids.length)}) AND status = ?
           AND CASE id ${part.map(() => 'WHEN ? THEN (attempt = ? AND fencing_token = ?)').join(' ')} END`,
        [S.SUCCESS, ...results, now, now, ...ids, S.RUNNING, ...part.flatMap((d) => [d.id, d.attempt, d.fencingToken])]);
      if (res.affected === part.length) {
        for (const id of ids) won.add(id);
        continue;
      }
      const back = await this.run(em,
        `SELECT id FROM job_instance WHERE id IN (${marks(ids.length)}) AND status = ? AND finished_at = ?
           AND CASE id ${part.map(() => 'WHEN ? THEN (attempt = ? AND fencing_token = ?)').join(' ')} END`,
        [...ids, S.SUCCESS, now, ...part.flatMap((d) => [d.id, d.attempt, d.fencingToken])]);
      for (const r of back.records ?? []) won.add((r as { id: string }).id);
    }
    return won;
  }

  /**
   * Closes many job_attempt rows in one UPDATE (status, error cut to 4,000 characters, `finished_at`);
   * only rows still RUNNING change. The instance ids must be distinct.
   */
  async endAttempts(em: EntityManager | undefined, ended: EndedAttempt[], now: number): Promise<void> {
    for (let i = 0; i < ended.length; i += CHUNK) {
      const part = ended.slice(i, i + CHUNK);
      const when = part.map(() => 'WHEN ? THEN ?').join(' ');
      await this.run(em,
        `UPDATE job_attempt SET status = CASE instance_id ${when} END, error = CASE instance_id ${when} END, finished_at = ?
         WHERE instance_id IN (${marks(part.length)}) AND status = ? AND CASE instance_id ${when.replace(/THEN \?/g, 'THEN attempt = ?')} END`,
        [...part.flatMap((a) => [a.instanceId, a.status]), ...part.flatMap((a) => [a.instanceId, a.error ? a.error.slice(0, 4000) : null]), now,
          ...part.map((a) => a.instanceId), 'RUNNING', ...part.flatMap((a) => [a.instanceId, a.attempt])]);
    }
  }

  /** A raw job_instance row as the entity (column names and transformers from the metadata). */
  private hydrate(raw: Record<string, unknown>): JobInstance {
    const row = new JobInstance() as unknown as Record<string, unknown>;
    for (const c of this.columns) {
      const v = raw[c.databaseName];
      row[c.propertyName] = c.transformer && !Array.isArray(c.transformer) ? c.transformer.from(v) : v;
    }
    return row as unknown as JobInstance;
  }

  private run(em: EntityManager | undefined, sql: string, params: unknown[]): Promise<StatementResult> {
    return runStatement(this.ds, em, sql, params);
  }
}

/** `?, ?, …` (n placeholders). */
function marks(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}
