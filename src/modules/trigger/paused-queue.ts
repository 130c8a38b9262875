import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { Admission, DispatchService } from '../dispatch/index.js';
import {
  CallbackDeliveryRepository,
  FireLedger,
  type JobDefinition,
  JobInstanceStatus,
  MisfirePolicy,
  type Tx,
} from '../metadata/index.js';

/** Queued fires one resume hands to the misfire policy at most (queueLimit's max; an older backlog stays queued). */
const RESUME_PAGE = 1000;

/**
 * A paused job's queue (docs/trigger.md "Overlap"): its WAITING scheduled fires are not released while it is paused
 * (admission's WaitingTurns); at the resume those more than MISFIRE_THRESHOLD_MS past their time are misfires of the
 * job's policy: FIRE_ALL runs them all in order, FIRE_ONCE_NOW runs the latest one (none when the resume's own
 * schedule misfires already run once), SKIP runs none; a fire not run is CANCELLED with a MISFIRE_SKIP note.
 */
@Injectable()
export class PausedQueue {
  private readonly logger = new Logger(PausedQueue.name);

  constructor(
    private readonly ledger: FireLedger,
    private readonly deliveries: CallbackDeliveryRepository,
    private readonly admission: Admission,
    private readonly dispatch: DispatchService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Inside the resume's transaction `em`, at `now` (epoch ms): applies `def`'s misfire policy to its queued
   * scheduled fires. `nextFireTime` is the resume's: more than the threshold past, the planner's own misfire run
   * stands for the missed fires. @returns how many fires it cancelled.
   */
  async onResume(em: Tx, def: JobDefinition, now: number, nextFireTime: number | null): Promise<number> {
    const threshold = this.config.misfireThresholdMs;
    if (def.misfirePolicy === MisfirePolicy.FIRE_ALL) return 0;
    const late = await this.ledger.queuedScheduled(em, def.id, now - threshold, RESUME_PAGE);
    if (late.length === 0) return 0;
    const scheduleRunsOnce = nextFireTime !== null && now - nextFireTime > threshold;
    const keep = def.misfirePolicy === MisfirePolicy.FIRE_ONCE_NOW && !scheduleRunsOnce ? late[0].fireTime : null;
    const gone = late.filter((r) => r.fireTime !== keep);
    const why =
      def.misfirePolicy === MisfirePolicy.SKIP
        ? 'not run (misfire policy SKIP)'
        : `not run: misfire policy FIRE_ONCE_NOW runs one fire for the missed ones (${runsWhich(keep)})`;
    const error = `MISFIRE_SKIP: queued while the job was paused, more than MISFIRE_THRESHOLD_MS late at its resume; ${why}`;
    await this.ledger.cancelQueued(
      em,
      gone.map((r) => r.id),
      error,
      now,
    );
    const finals = gone.map((r) => ({ ...r, finishedAt: now, error, finalStatus: JobInstanceStatus.CANCELLED }));
    await this.deliveries.enqueueFinal(em, finals, now);
    return new Set(gone.map((r) => r.fireTime)).size;
  }

  /** After the resume's commit: releases the job's next queued fire if it has room. Never throws. */
  async release(jobId: string): Promise<void> {
    await this.admission
      .promoteNext(jobId, this.dispatch)
      .catch((err: Error) => this.logger.warn(`job ${jobId}: queued fire not released at resume: ${err.message}`));
  }
}

function runsWhich(keep: number | null): string {
  return keep === null ? 'the schedule misfire run' : `the queued fire of ${new Date(keep).toISOString()}`;
}
