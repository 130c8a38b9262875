import { Injectable } from '@nestjs/common';
import { ErrorCode, SchedulerError } from '../../../common/index.js';

/** List reads of one app running at once on one api process; the next ones wait their turn. */
export const READS_PER_APP = 2;
/** List reads of one app that may wait; one more is a 429 (RATE_LIMITED, Retry-After: 1). */
export const READS_WAITING_PER_APP = 16;

/**
 * Holds one app's costly list reads (GET /api/tasks, /api/callbacks/deliveries, /api/overview: their cost grows with
 * the app's retained rows) to {@link READS_PER_APP} at once per api process, so one app's burst of them takes at most
 * that many of the database pool's connections and leaves the rest to other apps (docs/api.md "Read routes"). In
 * memory, per process; each wait is first come, first served.
 */
@Injectable()
export class ReadGate {
  private readonly apps = new Map<string, { running: number; waiting: Array<() => void> }>();

  /** Runs `read` for `appId` when a slot is free. @throws SchedulerError(RATE_LIMITED) when too many wait already. */
  async run<T>(appId: string, read: () => Promise<T>): Promise<T> {
    let gate = this.apps.get(appId);
    if (!gate) this.apps.set(appId, (gate = { running: 0, waiting: [] }));
    if (gate.running < READS_PER_APP) gate.running++;
    else if (gate.waiting.length >= READS_WAITING_PER_APP)
      throw new SchedulerError(
        ErrorCode.RATE_LIMITED,
        `app '${appId}' has ${READS_PER_APP} list reads running and ${READS_WAITING_PER_APP} waiting on this api ` +
          'process; retry after 1 s',
        undefined,
        { retryAfterSeconds: 1 },
      );
    else await new Promise<void>((resolve) => gate.waiting.push(resolve)); // resumed holding the slot it waited for
    try {
      return await read();
    } finally {
      const next = gate.waiting.shift();
      if (next) next();
      else if (--gate.running === 0) this.apps.delete(appId);
    }
  }
}
