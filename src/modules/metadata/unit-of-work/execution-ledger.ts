import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { JobInstance } from '../entities/index.js';
import { type EndedAttempt, JobAttemptRepository } from '../repositories/job-attempt.repository.js';
import { JobInstanceRepository, type SucceededAttempt } from '../repositories/job-instance.repository.js';
import { STATEMENT_ROWS } from '../repositories/raw-statement.js';
import { type Tx, UnitOfWork } from './unit-of-work.js';

/** One instance an executor claimed: the row as it was read (DISPATCHED) and the fencing token its claim issued. */
export interface ClaimedInstance {
  row: JobInstance;
  fencingToken: number;
}

/**
 * The executor's hot path (docs/execution.md) as units of work over JobInstanceRepository and
 * JobAttemptRepository, k rows per statement: claim k instances and open their attempts, then close k
 * successful attempts. Every write keeps the per-row guards of a single transition (status, node, attempt,
 * fencing token), so a row another writer moved is simply not matched. Methods take the caller's `tx`
 * (UnitOfWork.run, where the finish writer adds its other writes); a multi-statement method given none runs
 * in a unit of work of its own.
 */
@Injectable()
export class ExecutionLedger {
  private readonly uow: UnitOfWork;

  constructor(
    @InjectDataSource() ds: DataSource,
    private readonly instances: JobInstanceRepository,
    private readonly attempts: JobAttemptRepository,
  ) {
    this.uow = UnitOfWork.for(ds);
  }

  /** The rows of `ids` that exist, whole (one SELECT per 500 ids). */
  findMany(ids: string[], tx?: Tx): Promise<JobInstance[]> {
    return this.instances.findMany(ids, tx);
  }

  /**
   * DISPATCHED→RUNNING of `rows` (as read) for `nodeId`, and the job_attempt row of each winner, together: per
   * 500 rows one UPDATE (token+1, lease `leaseUntil`, start `now`), a read-back only when some row was lost,
   * and one multi-row INSERT IGNORE of the attempts. A claim never exists without its attempt.
   * @returns the rows this call claimed, with their new fencing token.
   */
  claim(tx: Tx | undefined, rows: JobInstance[], nodeId: string, now: number, leaseUntil: number): Promise<ClaimedInstance[]> {
    return this.within(tx, async (em) => {
      const out: ClaimedInstance[] = [];
      for (let i = 0; i < rows.length; i += STATEMENT_ROWS) {
        const won = await this.instances.claimDispatched(em, rows.slice(i, i + STATEMENT_ROWS), nodeId, now, leaseUntil);
        if (won.length === 0) continue;
        await this.attempts.startMany(em, won.map((r) => ({
          instanceId: r.id, attempt: r.attempt, nodeId, fencingToken: r.fencingToken + 1,
        })), now);
        for (const row of won) out.push({ row, fencingToken: row.fencingToken + 1 });
      }
      return out;
    });
  }

  /**
   * RUNNING→SUCCESS of many attempts (JobInstanceRepository.succeedMany); idempotent for a retry with the
   * same `now`. @returns the instance ids whose write won.
   */
  succeed(tx: Tx | undefined, done: SucceededAttempt[], now: number): Promise<Set<string>> {
    return this.within(tx, (em) => this.instances.succeedMany(em, done, now));
  }

  /** Closes many RUNNING attempt rows (JobAttemptRepository.endMany); the instance ids must be distinct. */
  endAttempts(tx: Tx | undefined, ended: EndedAttempt[], now: number): Promise<void> {
    return this.attempts.endMany(tx, ended, now);
  }

  private within<T>(tx: Tx | undefined, fn: (tx: Tx) => Promise<T>): Promise<T> {
    return tx ? fn(tx) : this.uow.run(fn);
  }
}
