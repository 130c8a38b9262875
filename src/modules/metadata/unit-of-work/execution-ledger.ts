import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { JobInstance } from '../entities/index.js';
import { type EndedAttempt, JobAttemptRepository } from '../repositories/job-attempt.repository.js';
import { ExecutionInstances, type StoredCheckpoint, type SucceededAttempt } from '../instances/execution-instances.js';
import { InstanceReads } from '../instances/instance-reads.js';
import { STATEMENT_ROWS } from '../repositories/raw-statement.js';
import { type Tx, UnitOfWork } from './unit-of-work.js';

/**
 * One instance an executor claimed: the row as read (DISPATCHED), the fencing token its claim issued, its start,
 * and the checkpoint an earlier attempt stored (null: none).
 */
export interface ClaimedInstance {
  row: JobInstance;
  fencingToken: number;
  /** The claim's time (the row's new started_at), epoch ms: the attempt's start. */
  startedAt: number;
  checkpoint: StoredCheckpoint | null;
}

/**
 * The executor's hot path (docs/execution.md) over the instance queries and the attempt repository, k rows per
 * statement. Methods take the caller's `tx`; a multi-statement method given none runs in a unit of work of its own.
 */
@Injectable()
export class ExecutionLedger {
  private readonly uow: UnitOfWork;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly instances: ExecutionInstances,
    private readonly reads: InstanceReads,
    private readonly attempts: JobAttemptRepository,
  ) {
    this.uow = UnitOfWork.for(ds);
  }

  /** The rows of `ids` that exist, whole. */
  findMany(ids: string[], tx?: Tx): Promise<JobInstance[]> {
    return this.reads.findMany(ids, tx);
  }

  /**
   * DISPATCHED→RUNNING of `rows` (as read) for `nodeId`: per 500 rows one UPDATE, a read-back only when some row
   * was lost, and a read of the checkpoints of the winners whose checkpoint_at is set (most have none: no read).
   * No attempt row: it is written once, when the attempt ends (endAttempts, or whoever takes the attempt back);
   * until then the instance row (node, token, started_at) is its record. Without `tx`, MySQL runs each statement on
   * its own (the UPDATE is the claim; a read-back finds its rows by node and `now`); SQLite runs them in a unit of
   * work, since a statement outside one lands in whatever unit is open and would roll back with it.
   * @returns the claimed rows.
   */
  async claim(
    tx: Tx | undefined,
    rows: JobInstance[],
    nodeId: string,
    now: number,
    leaseUntil: number,
  ): Promise<ClaimedInstance[]> {
    if (!tx && this.ds.options.type !== 'mysql')
      return this.uow.run((em) => this.claim(em, rows, nodeId, now, leaseUntil));
    const out: ClaimedInstance[] = [];
    for (let i = 0; i < rows.length; i += STATEMENT_ROWS) {
      const part = rows.slice(i, i + STATEMENT_ROWS);
      const won = await this.instances.claimDispatched(tx, part, nodeId, now, leaseUntil);
      if (won.length === 0) continue;
      // Read after the claim: no earlier attempt can write one now (its token is stale), so this is the last.
      const withCheckpoint = won.filter((r) => r.checkpointAt !== null).map((r) => r.id);
      const stored = withCheckpoint.length ? await this.instances.readCheckpoints(tx, withCheckpoint) : new Map();
      for (const row of won) {
        out.push({ row, fencingToken: row.fencingToken + 1, startedAt: now, checkpoint: stored.get(row.id) ?? null });
      }
    }
    return out;
  }

  /** RUNNING→SUCCESS of many attempts (ExecutionInstances.succeedMany). @returns the ids that won. */
  succeed(tx: Tx | undefined, done: SucceededAttempt[], now: number): Promise<Set<string>> {
    return this.within(tx, (em) => this.instances.succeedMany(em, done, now));
  }

  /** Writes many ended attempts (JobAttemptRepository.endMany); the instance ids must be distinct. */
  endAttempts(tx: Tx | undefined, ended: EndedAttempt[], now: number): Promise<void> {
    return this.attempts.endMany(tx, ended, now);
  }

  private within<T>(tx: Tx | undefined, fn: (tx: Tx) => Promise<T>): Promise<T> {
    return tx ? fn(tx) : this.uow.run(fn);
  }
}
