import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { Admission, DispatchService } from '../dispatch/index.js';
import { TriggerService } from './trigger.service.js';
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
 * What a change of a job does to its fires (docs/trigger.md "A bounded queue, and pause"): an edit or pause removes
 * its staged fires; a resume hands its queued scheduled fires late past MISFIRE_THRESHOLD_MS to the misfire policy
 * (FIRE_ALL all, FIRE_ONCE_NOW the latest, SKIP none; the rest CANCELLED MISFIRE_SKIP) and releases the next.
 */
@Injectable()
export class JobChangeFires {
  private readonly logger = new Logger(JobChangeFires.name);

  constructor(
    private readonly trigger: TriggerService,
    private readonly ledger: FireLedger,
    private readonly deliveries: CallbackDeliveryRepository,
    private readonly admission: Admission,
    private readonly dispatch: DispatchService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Inside `em`: removes job `jobId`'s staged fires (see TriggerService.unstage). */
  unstage(em: Tx, jobId: string): ReturnType<TriggerService['unstage']> {
    return this.trigger.unstage(em, jobId);
  }

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
    const error = `MISFIRE_SKIP: queued while the job was paused, over MISFIRE_THRESHOLD_MS late at its resume; ${why}`;
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
