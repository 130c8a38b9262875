import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock, groupBy } from '../../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import type { AttemptAdmission, HandOff, Leaver } from '../../execution/index.js';
import {
  AdmissionInstances,
  FINAL_STATUSES,
  InstanceTransitions,
  JobInstance,
  JobInstanceStatus as S,
} from '../../metadata/index.js';
import { JobSemaphore, type SlotHolder } from './job-semaphore.js';
import { stopGraceMs, stopGraceOnCancel } from './stop-grace.js';
import { WaitingTurns } from './waiting-turns.js';

/**
 * Admission (docs/admission.md): the one place that decides when an instance of a job may run under its
 * maxConcurrency slots and QUEUE turns: admit, confirm, free, promote, the stop grace, the semaphores' rebuild.
 */
@Injectable()
export class Admission implements AttemptAdmission {
  /** The stop grace, ms (see stopGraceMs). */
  readonly stopGraceMs: number;

  constructor(
    private readonly instances: AdmissionInstances,
    private readonly transitions: InstanceTransitions,
    private readonly semaphore: JobSemaphore,
    private readonly turns: WaitingTurns,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.stopGraceMs = stopGraceMs(config);
  }

  /** Due PENDING rows take a slot of their job's semaphore, or go WAITING. @returns the rows to dispatch. */
  async admit(rows: JobInstance[], now: number): Promise<JobInstance[]> {
    const limited = rows.filter(isLimited);
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

  /** Rows just written DISPATCHED keep their slot, take one again, or go back unpushed. @returns the ids withdrawn. */
  async confirm(won: JobInstance[], now: number): Promise<Set<string>> {
    const withdrawn = new Set<string>();
    for (const [jobId, group] of groupBy(won.filter(isLimited), (r) => r.jobId as string)) {
      const ok = await this.semaphore.acquireFor(jobId, group, now);
      for (const row of group.filter((r) => !ok.has(r.id))) {
        withdrawn.add(row.id);
        const back = await this.transitions.transition(
          row.id,
          S.DISPATCHED,
          S.PENDING,
          { attempt: row.attempt },
          { nodeId: null, dispatchedAt: null },
          now,
        );
        if (back) await this.toWaiting(row, now);
      }
    }
    return withdrawn;
  }

  /** Admitted rows whose DISPATCHED write lost: one now WAITING or ended gives back the slot it took for nobody. */
  async freeLost(lost: JobInstance[]): Promise<void> {
    if (lost.length === 0) return;
    const idle = await this.instances.idsInStatus(
      lost.map((r) => r.id),
      [S.WAITING, ...FINAL_STATUSES],
    );
    for (const row of lost.filter((r) => idle.has(r.id))) await this.semaphore.free(row.jobId as string, row.id);
  }

  /**
   * The one path for an instance that left DISPATCHED/RUNNING: frees its slot, then promotes the job's next
   * WAITING instance and hands it off. @param promote false for a retry that keeps its QUEUE turn.
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

  /** The stop grace a cancel of `row` (as read) writes at `now` (epoch ms), or null. */
  stopGraceOnCancel(row: JobInstance, now: number): number | null {
    return stopGraceOnCancel(row, now, this.stopGraceMs);
  }

  /**
   * A RUNNING instance was just written CANCELLED: its slot now expires with the stop grace. A grace already ended
   * means its executor freed the slot before this hold, so the slot is freed again.
   */
  async holdForStopGrace(row: JobInstance, now: number): Promise<void> {
    if (!row.jobId || row.maxConcurrency <= 0) return;
    await this.semaphore.holdUntil(row.jobId, row.id, now + this.stopGraceMs, now);
    if ((await this.instances.leaseUntilOf(row.id)) === null) await this.semaphore.free(row.jobId, row.id);
  }

  /** The handler of cancelled attempt `fencingToken` stopped: ends the stop grace, then {@link free}. */
  async stopGraceEnded(row: Leaver, fencingToken: number, handOff: HandOff): Promise<void> {
    await this.instances.clearCancelledLease(row.id, fencingToken);
    await this.free(row, handOff);
  }

  /** The leader's pass: `rows` hold their slots again (JobSemaphore.reassert). @returns jobs over their limit. */
  reassert(rows: SlotHolder[], now: number): Promise<string[]> {
    return this.semaphore.reassert(rows, now);
  }

  private async toWaiting(row: JobInstance, now: number): Promise<void> {
    const error = `MAX_CONCURRENCY: ${row.maxConcurrency} instance(s) of the job already running; waits for a slot`;
    await this.transitions.transition(row.id, S.PENDING, S.WAITING, { attempt: row.attempt }, { error }, now);
  }
}

function isLimited(row: JobInstance): boolean {
  return row.maxConcurrency > 0 && !!row.jobId;
}
