import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { CLOCK, type Clock, TooManyUnfinishedError } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { JobInstanceRepository } from '../metadata/index.js';
import { type Caller } from './caller.js';

/** How long a per-app count of unfinished instances is trusted before it is read again, ms. */
const COUNT_TTL_MS = 1_000;
/** Apps whose counts one API process keeps. */
const MAX_APPS = 10_000;

/** One app's count as this process knows it. */
interface AppCount {
  /** Unfinished instances at the last read. */
  read: number;
  readAt: number;
  /** Tasks this process admitted since that read began. */
  since: number;
  /** The read under way, shared by the submits waiting on it. */
  reading?: Promise<void>;
}

/**
 * The cap on one app's unfinished work (MAX_UNFINISHED_TASKS_PER_APP, or the client's max_unfinished_tasks;
 * 0 = no limit; README "Tenancy and scopes"). No COUNT on every submit: the app's unfinished instances
 * (tasks and job fires, every namespace) are read from the (app_id, status) index at most once a second per
 * API process, and this process adds what it admitted since. So one process never admits past the cap by
 * its own submits; instances finished within the last second still count (it refuses a little early); and
 * N API processes may together overshoot by what the other N-1 admitted within one second.
 */
@Injectable()
export class TaskCapService {
  private readonly counts = new LRUCache<string, AppCount>({ max: MAX_APPS });

  constructor(
    private readonly instances: JobInstanceRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Admits `n` new tasks (or fires: `noun`) of `caller`'s app, or refuses them all.
   * @param caller the app whose count it is, and its client's cap (null = the setting).
   * @throws TooManyUnfinishedError (429, Retry-After 1 s) when they would take the app past its cap.
   */
  async admit(caller: Pick<Caller, 'appId' | 'maxUnfinishedTasks'>, n: number, noun = 'task'): Promise<void> {
    const cap = caller.maxUnfinishedTasks ?? this.config.caps.maxUnfinishedTasksPerApp;
    if (cap === 0) return;
    const count = await this.fresh(caller.appId);
    const unfinished = count.read + count.since;
    if (unfinished + n > cap) {
      throw new TooManyUnfinishedError(
        `app '${caller.appId}' has ${unfinished} unfinished tasks and fires and may have at most ${cap} ` +
          `(its maxUnfinishedTasks, else MAX_UNFINISHED_TASKS_PER_APP); ` +
          `${n === 1 ? `this ${noun}` : `these ${n} ${noun}s`} would pass it: retry once some have finished`,
        1,
      );
    }
    count.since += n;
  }

  /** The app's count, read again when older than {@link COUNT_TTL_MS} (one read at a time per app). */
  private async fresh(appId: string): Promise<AppCount> {
    let count = this.counts.get(appId);
    if (!count) {
      count = { read: 0, readAt: Number.NEGATIVE_INFINITY, since: 0 };
      this.counts.set(appId, count);
    }
    if (this.clock.now() - count.readAt >= COUNT_TTL_MS) {
      count.reading ??= this.read(appId, count).finally(() => (count.reading = undefined));
      await count.reading;
    }
    return count;
  }

  /** Reads the count; admissions made while it runs stay counted on top of it (their rows may be missing from it). */
  private async read(appId: string, count: AppCount): Promise<void> {
    const before = count.since;
    const started = this.clock.now();
    count.read = await this.instances.countUnfinishedOfApp(appId);
    count.readAt = started;
    count.since -= before;
  }
}
