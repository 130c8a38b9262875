import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock, groupBy } from '../../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import type { AttemptAdmission, AttemptEnd, HandOff, Leaver } from '../../execution/index.js';
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

/** Limited instances re-asserted per pass (narrow rows; normally no more than the sum of the jobs' limits). */
const SLOT_PAGE = 5000;

/**
 * What became of an instance, as its caller reports it (docs/admission.md "Who reports what"): an executor's
 * {@link AttemptEnd}; `cancelled` from status `from` by a cancel at `at` (epoch ms; the canceller's clock read, the
 * one its stop grace was written with); `quarantined`; `takenBack` from a lost node or lease by the reconciler.
 */
export type InstanceEnd =
  AttemptEnd | { kind: 'cancelled'; from: S; at: number } | { kind: 'quarantined' } | { kind: 'takenBack' };

/**
 * Admission (docs/admission.md): the one place that decides when an instance of a job may run under its
 * maxConcurrency slots and QUEUE turns: admit, confirm, what an instance's end frees and promotes, the stop grace,
 * the semaphores' rebuild.
 */
@Injectable()
export class Admission implements AttemptAdmission {
  /** The stop grace, ms (see stopGraceMs). */
  readonly stopGraceMs: number;
  private readonly namespace: string;

  constructor(
    private readonly instances: AdmissionInstances,
    private readonly transitions: InstanceTransitions,
    private readonly semaphore: JobSemaphore,
    private readonly turns: WaitingTurns,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.stopGraceMs = stopGraceMs(config);
    this.namespace = config.namespace;
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
   * The one decision on an instance's end (docs/admission.md "What admission decides"): frees its slot and promotes
   * the job's next WAITING instance (handed off through `handOff`), or holds the slot for a running instance's stop
   * grace, or ends that grace first. A task of no job holds nothing.
   */
  async ended(row: Leaver, end: InstanceEnd, handOff: HandOff): Promise<void> {
    if (!row.jobId) return;
    switch (end.kind) {
      case 'finished':
        // A retry waits out its backoff holding no slot but its QUEUE turn: without a limit there is no room to give.
        return this.free(row, handOff, end.final || row.maxConcurrency > 0);
      case 'finishLost':
      case 'stopped':
        // A cancel of this very attempt left its slot and turn to this end; one taken away has nothing of it here.
        if (await this.instances.isCancelledAt(row.id, end.fencingToken)) {
          await this.instances.clearCancelledLease(row.id, end.fencingToken);
          return this.free(row, handOff);
        }
        if (end.kind === 'stopped') await this.promoteNext(row.jobId, handOff);
        return;
      case 'cancelled':
        if (end.from === S.RUNNING) return this.holdForStopGrace(row, end.at);
        return this.free(row, handOff);
      case 'quarantined':
      case 'takenBack':
        return this.free(row, handOff);
    }
  }

  /** Promotes job `jobId`'s next WAITING instance if the job has room, and hands it off (the reconciler's backstop). */
  async promoteNext(jobId: string, handOff: HandOff): Promise<void> {
    const promoted = await this.turns.promoteNext(jobId, this.clock.now());
    if (promoted) await handOff.handOff(promoted);
  }

  /** The stop grace a cancel of `row` (as read) writes at `now` (epoch ms), or null. */
  stopGraceOnCancel(row: JobInstance, now: number): number | null {
    return stopGraceOnCancel(row, now, this.stopGraceMs);
  }

  /**
   * Step 0 of the leader's pass (docs/dispatch.md "Reconciler"): a page of limited DISPATCHED/RUNNING instances, by
   * id after `afterId`, hold their slots again. @returns the jobs over their limit, and the id the next page starts
   * after ('' once the last page was read).
   */
  async reassertPage(afterId: string): Promise<{ over: string[]; next: string }> {
    const rows = await this.instances.findSlotHolders(this.namespace, SLOT_PAGE, undefined, afterId);
    const next = rows.length < SLOT_PAGE ? '' : rows[rows.length - 1].id;
    return { over: await this.reassert(rows, this.clock.now()), next };
  }

  /** `rows` (as read) hold their slots again (JobSemaphore.reassert). @returns the jobs over their limit. */
  reassert(rows: SlotHolder[], now: number): Promise<string[]> {
    return this.semaphore.reassert(rows, now);
  }

  /** Frees `row`'s slot, then promotes the job's next WAITING instance unless `promote` is false. */
  private async free(row: Leaver, handOff: HandOff, promote = true): Promise<void> {
    if (row.maxConcurrency > 0) await this.semaphore.free(row.jobId as string, row.id);
    if (promote) await this.promoteNext(row.jobId as string, handOff);
  }

  /**
   * A RUNNING instance was just written CANCELLED: its slot now expires with the stop grace. A grace already ended
   * means its executor freed the slot before this hold, so the slot is freed again.
   */
  private async holdForStopGrace(row: Leaver, now: number): Promise<void> {
    if (row.maxConcurrency <= 0) return;
    const jobId = row.jobId as string;
    await this.semaphore.holdUntil(jobId, row.id, now + this.stopGraceMs, now);
    if ((await this.instances.leaseUntilOf(row.id)) === null) await this.semaphore.free(jobId, row.id);
  }

  private async toWaiting(row: JobInstance, now: number): Promise<void> {
    const error = `MAX_CONCURRENCY: ${row.maxConcurrency} instance(s) of the job already running; waits for a slot`;
    await this.transitions.transition(row.id, S.PENDING, S.WAITING, { attempt: row.attempt }, { error }, now);
  }
}

function isLimited(row: JobInstance): boolean {
  return row.maxConcurrency > 0 && !!row.jobId;
}
