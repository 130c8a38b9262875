import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { CLOCK, type Clock, TooManyUnfinishedError } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { InstanceReads } from '../metadata/index.js';
import { type Caller } from './caller.js';

/** How long a per-app count of unfinished instances is trusted before it is read again, ms. */
const COUNT_TTL_MS = 1_000;
/** Apps whose counts one API process keeps. */
const MAX_APPS = 10_000;

/** One app's count as this process knows it: unfinished at the last read, and admitted here since it began. */
interface AppCount {
  read: number;
  readAt: number;
  since: number;
  /** The read under way, shared by the submits waiting on it. */
  reading?: Promise<void>;
}

/**
 * The cap on one app's unfinished work (MAX_UNFINISHED_TASKS_PER_APP or the client's; 0 = none; README
 * "Tenancy and scopes"). The app's unfinished instances are read at most once a second per process, plus what
 * this process admitted since: one process never passes the cap by its own submits; N processes may overshoot
 * by what the other N-1 admitted within a second.
 */
@Injectable()
export class TaskCapService {
  private readonly counts = new LRUCache<string, AppCount>({ max: MAX_APPS });

  constructor(
    private readonly instances: InstanceReads,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Admits `n` new tasks (or fires: `noun`) of the app, by its client's cap (null = the setting), or none.
   * @throws TooManyUnfinishedError (Retry-After 1 s) when they would take the app past its cap.
   */
  async admit(caller: Pick<Caller, 'appId' | 'maxUnfinishedTasks'>, n: number, noun = 'task'): Promise<void> {
    await this.verify(caller, n, noun, true);
  }

  /** {@link admit}'s check alone, counting nothing (a dry run). @throws TooManyUnfinishedError as admit. */
  async check(caller: Pick<Caller, 'appId' | 'maxUnfinishedTasks'>, n: number, noun = 'task'): Promise<void> {
    await this.verify(caller, n, noun, false);
  }

  /** Checks `n` more against the cap and, when `counting`, counts them in the same step. @throws as admit */
  private async verify(
    caller: Pick<Caller, 'appId' | 'maxUnfinishedTasks'>,
    n: number,
    noun: string,
    counting: boolean,
  ): Promise<void> {
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
    if (counting) count.since += n;
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

  /** Reads the count; admissions made while it runs stay counted on top (their rows may be missing from it). */
  private async read(appId: string, count: AppCount): Promise<void> {
    const before = count.since;
    const started = this.clock.now();
    count.read = await this.instances.countUnfinishedOfApp(appId);
    count.readAt = started;
    count.since -= before;
  }
}
