import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/index.js';
import { FINAL_STATUSES, JobAttemptRepository, JobInstance, JobInstanceRepository, JobInstanceStatus, type Tx } from '../metadata/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { COORDINATION, type CoordinationPort, INSTANCE_STOP_CHANNEL, jobSlots } from '../coordination/index.js';
import { MetricsService } from '../observability/index.js';
import { DispatchService } from './dispatch.service.js';

/** Rounds of read-and-cancel before a cancel that keeps losing to the row's moves gives up. */
const CANCEL_TRIES = 10;

/** Work committed with a cancel that won (its audit row), given the row as it was before the cancel. */
export type InCancelTransaction = (em: Tx, row: JobInstance) => Promise<void>;

/**
 * Cancels instances (DESIGN §4, §7): any unfinished status → CANCELLED in one conditional write.
 *
 * A RUNNING instance's executor is told at once (signal {@link INSTANCE_STOP_CHANNEL}; its heartbeat check,
 * every HEARTBEAT_INTERVAL_MS, is the backstop) and aborts the handler's signal; its own finishing write then
 * loses, as the row is no longer RUNNING. Its job's maxConcurrency slot is not given up by the canceller but
 * by that executor once the handler has stopped (which then releases the next WAITING instance), so the next
 * instance does not run beside the cancelled one. An executor that never answers (dead or frozen, not yet declared
 * offline) holds the slot at most {@link CancelService.stopGraceMs} more: the holder's expiry is cut to that,
 * and the leader's pass (step 6) releases the next WAITING instance after it. A QUEUE job's turn has no slot
 * to hold: the cancelled row's `lease_until` (now + the grace, cleared by the executor once the handler
 * stopped) keeps it, as releaseNextWaiting counts such a row as still running.
 *
 * Any other unfinished instance gives its slot back and the job's next WAITING instance is released at once.
 */
@Injectable()
export class CancelService {
  private readonly logger = new Logger(CancelService.name);

  constructor(
    private readonly instances: JobInstanceRepository,
    private readonly attempts: JobAttemptRepository,
    private readonly dispatch: DispatchService,
    private readonly metrics: MetricsService,
    @Inject(COORDINATION) private readonly coordination: CoordinationPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * How long a cancelled RUNNING instance may keep its slot (and QUEUE turn) for its executor to stop it (ms): as
   * long as a RUNNING instance of a silent executor keeps its own, NODE_OFFLINE_AFTER_MS (at least two heartbeats).
   * An executor that does not answer may be frozen (GC pause, SIGSTOP, starved CPU) rather than dead, its handler's
   * call still open: with the slot given up after two heartbeats, the next instance ran beside it on another node.
   */
  get stopGraceMs(): number {
    return Math.max(2 * this.config.heartbeatIntervalMs, this.config.nodeOfflineAfterMs);
  }

  /**
   * Cancels the instance `row` (as read by the caller). The row may move on meanwhile (WAITING→PENDING by a
   * release, PENDING→DISPATCHED, DISPATCHED→RUNNING by a claim, a retry back to PENDING): a transition that lost
   * to such a move is tried again on a fresh read, so the cancel is not dropped while the instance goes on to
   * run (a cancel storm on a limited job answered PENDING and the instance ran; a REPLACE victim claimed just
   * after the fire's read ran on beside its replacement). Gives up only after {@link CANCEL_TRIES} lost rounds.
   * @param inTx with it, the winning transition and `inTx` commit in one transaction (an API cancel and its
   *   audit row): when `inTx` throws, nothing is cancelled and the error propagates.
   * @returns true when this call cancelled it; false when it was already final (or ended meanwhile).
   */
  async cancel(row: JobInstance, reason: string, inTx?: InCancelTransaction): Promise<boolean> {
    for (let round = 1; ; round++) {
      if (FINAL_STATUSES.has(row.status)) return false;
      if (await this.cancelAsRead(row, reason, inTx)) return true;
      const fresh = round < CANCEL_TRIES ? await this.instances.findById(row.id) : null;
      if (!fresh) return false;
      row = fresh;
    }
  }

  /** One conditional cancel of `row` in the status and attempt it was read with; false when the row moved. */
  private async cancelAsRead(row: JobInstance, reason: string, inTx?: InCancelTransaction): Promise<boolean> {
    const now = this.clock.now();
    // A running handler may still be stopping: until its executor says it stopped (or the grace runs out), the row's
    // lease_until keeps the job's QUEUE turn / maxConcurrency place taken (JobInstanceRepository.endStopGrace).
    // (A task of no job has no turn or slot to keep.)
    const leaseUntil = row.status === JobInstanceStatus.RUNNING && row.jobId ? now + this.stopGraceMs : null;
    const transition = (em?: Tx) => this.instances.transition(row.id, row.status, JobInstanceStatus.CANCELLED, { attempt: row.attempt },
      { finishedAt: now, leaseUntil, error: reason.slice(0, 1000) }, now, em);
    const won = !inTx ? await transition() : await this.instances.transaction(async (em) => {
      const w = await transition(em);
      if (w) await inTx(em, row);
      return w;
    });
    if (!won) return false;
    this.metrics.instancesFinished.inc({ status: JobInstanceStatus.CANCELLED });
    if (row.status !== JobInstanceStatus.RUNNING) {
      if (row.jobId) await this.freeSlot(row.jobId, row.id, row.maxConcurrency);
      return true;
    }
    await this.attempts.finish(row.id, row.attempt, JobInstanceStatus.CANCELLED, reason, now);
    if (row.jobId && row.maxConcurrency > 0) {
      // Keep the slot for the executor to free once the handler stopped, but no longer than the grace. Cut before
      // the signal goes, so the executor's release comes after it. A heartbeat's check may still land first: the
      // executor then ended the grace and freed the slot before this cut put the holder back (for the whole grace,
      // the job's next instances waiting on a handler long stopped). It ends the grace before it frees the slot,
      // so a grace seen ended after the cut means the cut came late, and the slot is given back here.
      await this.coordination.acquireSlots(jobSlots(row.jobId), [row.id], Number.MAX_SAFE_INTEGER, this.stopGraceMs, now);
      const [after] = await this.instances.findByIds([row.id]);
      if (after && after.leaseUntil === null) await this.coordination.releaseSlot(jobSlots(row.jobId), row.id);
    }
    await this.coordination.publish(INSTANCE_STOP_CHANNEL, row.id)
      .catch((err: Error) => this.logger.warn(`stop signal for ${row.id} not sent (its executor sees the cancel at its next heartbeat): ${err.message}`));
    return true;
  }

  /**
   * An instance of `jobId` left DISPATCHED/RUNNING (cancelled before it ran, lost with its node): frees its
   * maxConcurrency slot (when the job has a limit) and releases the job's next WAITING instance.
   */
  async freeSlot(jobId: string, instanceId: string, maxConcurrency: number): Promise<void> {
    if (maxConcurrency > 0) await this.coordination.releaseSlot(jobSlots(jobId), instanceId);
    await this.releaseNext(jobId);
  }

  /** QUEUE overlap and maxConcurrency: releases and dispatches the job's next WAITING instance if there is room. */
  async releaseNext(jobId: string): Promise<void> {
    const released = await this.instances.releaseNextWaiting(jobId, this.clock.now());
    if (released) await this.dispatch.dispatchRows([released]);
  }
}
