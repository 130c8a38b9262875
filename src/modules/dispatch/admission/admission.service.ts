import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock, groupBy } from '../../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { FINAL_STATUSES, JobInstance, JobInstanceRepository, JobInstanceStatus as S } from '../../metadata/index.js';
import { JobSemaphore, type SlotHolder } from './job-semaphore.js';
import { stopGraceMs, stopGraceOnCancel } from './stop-grace.js';
import { WaitingTurns } from './waiting-turns.js';

/**
 * Where a promoted instance (WAITING→PENDING, due now) goes to run: dispatch routes it at once; an executor puts
 * it on the delay queue for the leader's pump.
 */
export interface HandOff {
  handOff(promoted: JobInstance): Promise<unknown>;
}

/** An instance leaving its slot and turn: the columns {@link Admission.free} reads. */
export type Leaver = Pick<JobInstance, 'id' | 'jobId' | 'maxConcurrency'>;

/**
 * Admission (docs/admission.md): the one place that decides when an instance of a job may run, under its
 * maxConcurrency (a slot of the job's semaphore) and QUEUE overlap (one turn at a time). Words used:
 * - admit / confirm: a due PENDING row takes a slot before dispatch, and still holds it after its DISPATCHED write;
 * - free: an instance left DISPATCHED/RUNNING, its slot goes back and the next WAITING instance is promoted;
 * - promote: WAITING→PENDING, due now, when the job has room ({@link WaitingTurns}); then handed off ({@link HandOff});
 * - stop grace: a cancelled RUNNING instance keeps its slot and turn until its handler stopped (stop-grace.ts);
 * - rebuild / reassert: semaphores follow MySQL after a Redis loss and on every leader pass ({@link JobSemaphore}).
 */
@Injectable()
export class Admission {
  /** How long a cancelled RUNNING instance keeps its slot and turn at most (ms), see stopGraceMs. */
  readonly stopGraceMs: number;

  constructor(
    private readonly instances: JobInstanceRepository,
    private readonly semaphore: JobSemaphore,
    private readonly turns: WaitingTurns,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.stopGraceMs = stopGraceMs(config);
  }

  /**
   * Admission of due PENDING rows (dispatch's first step): a row of a limited job takes a slot of its job's
   * semaphore (expiring after its timeout plus LEASE_MS as a backstop); one that gets none goes PENDING→WAITING
   * and is promoted when an instance of the job ends. Rows without a limit pass. @returns the rows to dispatch.
   */
  async admit(rows: JobInstance[], now: number): Promise<JobInstance[]> {
    const limited = rows.filter((r) => r.maxConcurrency > 0 && r.jobId);
    if (limited.length === 0) return rows;
    const refused = new Set<JobInstance>();
    for (const [jobId, group] of groupBy(limited, (r) => r.jobId as string)) {
      const ok = await this.semaphore.acquireFor(jobId, group, now);
      for (const row of group.filter((r) => !ok.has(r.id))) {
        refused.add(row);
        await this.toWaiting(row, now);
      }
    }
    return rows.filter((r) => !refused.has(r));
  }

  /**
   * Limited rows just written DISPATCHED (not pushed yet) must still hold their slot: Redis may have lost it
   * since {@link admit}, and another dispatcher rebuilt the semaphore from a read that saw them PENDING. A row
   * whose slot is gone takes one again if there is room, else goes back DISPATCHED→PENDING→WAITING unpushed.
   * @returns the ids withdrawn (now WAITING, or taken by someone else meanwhile).
   */
  async confirm(won: JobInstance[], now: number): Promise<Set<string>> {
    const withdrawn = new Set<string>();
    for (const [jobId, group] of groupBy(won.filter((r) => r.maxConcurrency > 0 && r.jobId), (r) => r.jobId as string)) {
      const ok = await this.semaphore.acquireFor(jobId, group, now);
      for (const row of group.filter((r) => !ok.has(r.id))) {
        withdrawn.add(row.id);
        const back = await this.instances.transition(row.id, S.DISPATCHED, S.PENDING, { attempt: row.attempt },
          { nodeId: null, dispatchedAt: null }, now);
        if (back) await this.toWaiting(row, now);
      }
    }
    return withdrawn;
  }

  /**
   * Admitted limited rows whose DISPATCHED write lost to another dispatcher: one that went WAITING or ended holds
   * the slot {@link admit} took for nobody, and gives it back; one DISPATCHED there keeps it (same holder id).
   */
  async freeLost(lost: JobInstance[]): Promise<void> {
    if (lost.length === 0) return;
    const idle = await this.instances.idsInStatus(lost.map((r) => r.id), [S.WAITING, ...FINAL_STATUSES]);
    for (const row of lost.filter((r) => idle.has(r.id))) await this.semaphore.free(row.jobId as string, row.id);
  }

  /**
   * The one path for an instance that left its slot (ended, cancelled before it ran, taken back from a lost node):
   * frees its slot when its job has a limit, then promotes the job's next WAITING instance and hands it off.
   * @param promote false for a retry of an unlimited job: under QUEUE the retry keeps the turn.
   */
  async free(row: Leaver, handOff: HandOff, promote = true): Promise<void> {
    if (!row.jobId) return;
    if (row.maxConcurrency > 0) await this.semaphore.free(row.jobId, row.id);
    if (promote) await this.promoteNext(row.jobId, handOff);
  }

  /** Promotes job `jobId`'s next WAITING instance if the job has room, and hands it off. */
  async promoteNext(jobId: string, handOff: HandOff): Promise<void> {
    const promoted = await this.turns.promoteNext(jobId, this.clock.now());
    if (promoted) await handOff.handOff(promoted);
  }

  /** The stop grace deadline a cancel of `row` (as read) writes with CANCELLED at `now`, or null (none). */
  stopGraceOnCancel(row: JobInstance, now: number): number | null {
    return stopGraceOnCancel(row, now, this.stopGraceMs);
  }

  /**
   * After a RUNNING instance was written CANCELLED (before its executor is signalled): its slot is kept for the
   * executor to free once the handler stopped, but only until the stop grace ends. The executor may have ended
   * the grace and freed the slot before this put the holder back: then the slot is freed here.
   */
  async holdForStopGrace(row: JobInstance, now: number): Promise<void> {
    if (!row.jobId || row.maxConcurrency <= 0) return;
    await this.semaphore.holdUntil(row.jobId, row.id, now + this.stopGraceMs, now);
    const [after] = await this.instances.findByIds([row.id]);
    if (after && after.leaseUntil === null) await this.semaphore.free(row.jobId, row.id);
  }

  /**
   * The executor's handler of a cancelled instance stopped (attempt `fencingToken`): the stop grace ends, then
   * the slot is freed and the next WAITING instance promoted. The grace ends first, so a canceller that sees it
   * ended knows its hold came late ({@link holdForStopGrace}).
   */
  async stopGraceEnded(row: Leaver, fencingToken: number, handOff: HandOff): Promise<void> {
    await this.instances.clearCancelledLease(row.id, fencingToken);
    await this.free(row, handOff);
  }

  /**
   * The leader's pass: `rows` (DISPATCHED/RUNNING instances of limited jobs) hold their slots again where Redis
   * still knows the semaphore (expiry refresh for long runs); a lost one is rebuilt by {@link admit}.
   * @returns the job ids running over their limit (lowered, or broken by a Redis loss mid-admission).
   */
  reassert(rows: SlotHolder[], now: number): Promise<string[]> {
    return this.semaphore.reassert(rows, now);
  }

  /** PENDING→WAITING for a row refused a slot. */
  private async toWaiting(row: JobInstance, now: number): Promise<void> {
    await this.instances.transition(row.id, S.PENDING, S.WAITING, { attempt: row.attempt },
      { error: `MAX_CONCURRENCY: ${row.maxConcurrency} instance(s) of the job already running; waits for a slot` }, now);
  }
}
