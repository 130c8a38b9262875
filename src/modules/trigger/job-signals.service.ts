import { Inject, Injectable, Logger } from '@nestjs/common';
import { DELAY_DUE_CHANNEL, SIGNALS, type SignalPort } from '../coordination/index.js';

/** Coordination channel of job changes; messages are job ids. */
const JOBS_CHANGED = 'jobs-changed';

/**
 * Wake-ups between processes: a job change makes the leader reload its wheel at once, not at its next scan.
 * Only a hint: a lost message costs at most one scan interval.
 */
@Injectable()
export class JobSignals {
  private readonly logger = new Logger(JobSignals.name);

  constructor(@Inject(SIGNALS) private readonly coordination: SignalPort) {}

  /** Announces that job `jobId` was created or changed. Never throws (a failure is logged). */
  async jobChanged(jobId: string): Promise<void> {
    await this.coordination
      .publish(JOBS_CHANGED, jobId)
      .catch((err: Error) =>
        this.logger.warn(
          `job change signal for ${jobId} not sent (the leader sees it at its next scan): ${err.message}`,
        ),
      );
  }

  /** Calls `listener` each time an executor queues an id due now; resolves to the unsubscribe function. */
  onDelayDue(listener: () => void): Promise<() => Promise<void>> {
    return this.coordination.subscribe(DELAY_DUE_CHANNEL, () => listener());
  }

  /** Calls `listener` with the id of each job changed from now on; resolves to the unsubscribe function. */
  onJobChanged(listener: (jobId: string) => void): Promise<() => Promise<void>> {
    return this.coordination.subscribe(JOBS_CHANGED, listener);
  }
}
