import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { JobInstance } from '../entities/job-instance.entity.js';
import { marks, STATEMENT_ROWS } from '../repositories/raw-statement.js';
import { JobInstanceStatus as S } from '../state-machine/job-instance-status.js';
import { InstanceTable } from './instance-table.js';
import { statusChange } from './staged.js';

/** A successful attempt: the instance, the attempt and token it ran under, and its (bounded) result. */
export interface SucceededAttempt {
  id: string;
  attempt: number;
  fencingToken: number;
  result: unknown;
}

/** One checkpoint write (ExecutionInstances.writeCheckpoint); times epoch ms UTC. */
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

/** A progress report to store (docs/long-tasks.md "Progress"): fraction 0..1, note ≤ 256 chars, at epoch ms. */
export interface ProgressReport {
  instanceId: string;
  fencingToken: number;
  progress: number;
  note: string | null;
  at: number;
}

/**
 * The executor's job_instance I/O (docs/execution.md): the claim, the group's successes, lease renewal, checkpoints,
 * progress and the revocation check. Every write is conditional on the attempt's fencing token; the multi-row ones
 * cut their rows into statements of STATEMENT_ROWS.
 */
@Injectable()
export class ExecutionInstances {
  private readonly t: InstanceTable;

  constructor(@InjectDataSource() ds: DataSource) {
    this.t = InstanceTable.of(ds);
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
    const change = statusChange(S.DISPATCHED, S.RUNNING);
    const ids = rows.map((r) => r.id);
    const res = await this.t.run(
      em,
      `UPDATE job_instance SET status = ?, staged = ?, fencing_token = fencing_token + 1, lease_until = ?,
         started_at = ?, updated_at = ?
       WHERE id IN (${marks(ids.length)}) AND status = ? AND node_id = ?
         AND CASE id ${rows.map(() => 'WHEN ? THEN (attempt = ? AND fencing_token = ?)').join(' ')} END`,
      [
        change.status,
        change.staged,
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
    const back = await this.t.run(
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
    const change = statusChange(S.RUNNING, S.SUCCESS);
    const won = new Set<string>();
    const toColumn = this.t.column('result').transformer as { to(v: unknown): unknown } | undefined;
    for (let i = 0; i < done.length; i += STATEMENT_ROWS) {
      const part = done.slice(i, i + STATEMENT_ROWS);
      const ids = part.map((d) => d.id);
      const guards = part.flatMap((d) => [d.id, d.attempt, d.fencingToken]);
      const guard = `CASE id ${part.map(() => 'WHEN ? THEN (attempt = ? AND fencing_token = ?)').join(' ')} END`;
      const results = part.flatMap((d) => [d.id, toColumn ? (toColumn.to(d.result) ?? null) : d.result]);
      const result = `CASE id ${part.map(() => 'WHEN ? THEN ?').join(' ')} END`;
      const res = await this.t.run(
        em,
        `UPDATE job_instance SET status = ?, staged = ?, result = ${result},
           error = NULL, lease_until = NULL, finished_at = ?, updated_at = ?
         WHERE id IN (${marks(ids.length)}) AND status = ? AND ${guard}`,
        [change.status, change.staged, ...results, now, now, ...ids, S.RUNNING, ...guards],
      );
      if (res.affected === part.length) {
        for (const id of ids) won.add(id);
        continue;
      }
      const back = await this.t.run(
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
    const res = await this.t.repo
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
    const res = await this.t.run(
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
      const res = await this.t.run(
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
      const res = await this.t.run(
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
          S.RUNNING,
          ...part.flatMap((r) => [r.instanceId, r.fencingToken]),
        ],
      );
      changed += res.affected ?? 0;
    }
    return changed;
  }

  /** Those of the given attempts whose row is no longer RUNNING under their own fencing token. */
  async notRunningAnyMore<T extends { id: string; fencingToken: number }>(running: T[]): Promise<T[]> {
    if (running.length === 0) return [];
    const rows = await this.t.repo.find({
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
}
