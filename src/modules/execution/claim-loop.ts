import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { type ClaimedItem, type ClaimShare, NODE_QUEUES, type NodeQueuePort } from '../coordination/index.js';
import { AckBuffer } from './ack-buffer.js';
import { ClaimAhead } from './claim-ahead.js';
import { sleep } from './clock-timers.js';
import { TaskRunner } from './task-runner.service.js';

const CLAIM_WAIT_MS = 1000;
const CLAIM_ERROR_PAUSE_MS = 500;
/** Ids whose handler ended but whose finishing write or ack has not committed, at most (two finishing groups). */
export const FINISH_BACKLOG = 512;

interface Taken {
  appId: string | null;
  state: 'waiting' | 'running' | 'over';
}

interface SlotWaiter {
  taken: Taken;
  grant: () => void;
}

/**
 * Takes ids off this node's queue (docs/dispatch.md "Node queues"), round robin across apps, none past its
 * {@link share}; a worker slot (EXECUTOR_CONCURRENCY) is held only while a handler runs, and {@link ClaimAhead}
 * ids more are claimed while all are taken (docs/execution.md "Node lifecycle"). Ended ids are acked in groups; at
 * most {@link FINISH_BACKLOG} wait for their finishing write or ack.
 */
@Injectable()
export class ClaimLoop {
  private readonly logger = new Logger(ClaimLoop.name);
  private stopping = false;
  private loop: Promise<void> = Promise.resolve();
  private loopWaiter: (() => void) | null = null;
  private inFlightCount = 0;
  /** Ids taken whose handler has not started (claim write, or waiting for a slot); handlers running (slots). */
  private waiting = 0;
  private busy = 0;
  /** By app: ids taken whose handler has not ended (the claim's share), and handlers running (the slots' share). */
  private readonly appHeld = new Map<string, number>();
  private readonly appRunning = new Map<string, number>();
  private readonly slotQueue: SlotWaiter[] = [];
  /** Aborted when an id's handler ends: ends a claim that waits only because every app with work holds its share. */
  private slotFreed = new AbortController();
  private nodeId = '';
  private readonly acks: AckBuffer;
  private readonly ahead: ClaimAhead;

  constructor(
    private readonly runner: TaskRunner,
    @Inject(NODE_QUEUES) private readonly queues: NodeQueuePort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.acks = new AckBuffer(
      (ids) => this.queues.ackMany(this.nodeId, ids),
      (m) => this.logger.warn(m),
    );
    this.ahead = new ClaimAhead(config.executorConcurrency, () => clock.now());
  }

  /** Ids taken from the queue whose run has not ended (claimed or not yet, waiting for a slot, running, finishing). */
  get inFlight(): number {
    return this.inFlightCount;
  }

  /** Handlers running here now (worker slots taken). */
  get running(): number {
    return this.busy;
  }

  /** Starts claiming for `nodeId`; handlers run with `shutdown` as their node's shutdown signal. */
  start(nodeId: string, shutdown: AbortSignal): void {
    this.nodeId = nodeId;
    this.loop = this.run(shutdown);
  }

  /** Stops claiming; resolves once the loop has ended (what it started goes on running). */
  async stop(): Promise<void> {
    this.stopping = true;
    this.loopWaiter?.();
    await this.loop;
  }

  async retryAcks(): Promise<void> {
    await this.acks.retry();
  }

  /** How many ids a claim may take now: slots plus claim-ahead, less what is taken, within the finish backlog. */
  private room(): number {
    const backlog = this.inFlightCount - this.waiting - this.busy;
    const slots = this.config.executorConcurrency + this.ahead.room() - this.busy - this.waiting;
    return Math.min(slots, FINISH_BACKLOG - backlog);
  }

  private async run(shutdown: AbortSignal): Promise<void> {
    while (!this.stopping) {
      const free = this.room();
      if (free <= 0) {
        await new Promise<void>((resolve) => (this.loopWaiter = resolve));
        this.loopWaiter = null;
        continue;
      }
      let items: ClaimedItem[] = [];
      try {
        if (this.slotFreed.signal.aborted) this.slotFreed = new AbortController();
        items = await this.queues.claimMany(this.nodeId, free, CLAIM_WAIT_MS, this.share());
      } catch (err) {
        this.logger.warn(`claim failed: ${(err as Error).message}`);
        await sleep(this.clock, CLAIM_ERROR_PAUSE_MS);
      }
      if (items.length > 0) this.startRuns(items, shutdown);
    }
  }

  /**
   * EXECUTOR_APP_SHARE (README "Fair sharing"): an app runs at most max(1, ⌊EXECUTOR_CONCURRENCY × share⌋) handlers
   * here (and holds that share of the claim-ahead), so room stays for other apps; a handler is never preempted.
   */
  private share(): ClaimShare {
    const cap = Math.max(
      1,
      Math.floor((this.config.executorConcurrency + this.ahead.room()) * this.config.executorAppShare),
    );
    return { cap, held: this.appHeld, freed: this.slotFreed.signal };
  }

  private slotCap(): number {
    return Math.max(1, Math.floor(this.config.executorConcurrency * this.config.executorAppShare));
  }

  private startRuns(items: ClaimedItem[], shutdown: AbortSignal): void {
    this.inFlightCount += items.length;
    this.waiting += items.length;
    const taken = items.map(({ appId }): Taken => {
      if (appId !== null) add(this.appHeld, appId, 1);
      return { appId, state: 'waiting' };
    });
    const claim = this.ahead.claimStarted();
    void this.runner.runMany(
      items.map((i) => i.id),
      this.nodeId,
      shutdown,
      {
        claimed: () => claim.ended(),
        slot: (_id, k, signal) => this.slot(taken[k], signal),
        handlerDone: (_id, k) => this.handlerDone(taken[k]),
        ended: (id) => {
          void this.acks.submit(id).finally(() => {
            this.inFlightCount--;
            this.loopWaiter?.();
          });
        },
      },
    );
  }

  /** Resolves once `t` holds a worker slot, or once `signal` aborts (then it holds none). */
  private slot(t: Taken, signal: AbortSignal): Promise<void> {
    if (t.state !== 'waiting') return Promise.resolve();
    return new Promise<void>((resolve) => {
      const waiter: SlotWaiter = {
        taken: t,
        grant: () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        const at = this.slotQueue.indexOf(waiter);
        if (at >= 0) this.slotQueue.splice(at, 1);
        resolve();
      };
      if (signal.aborted) return resolve();
      signal.addEventListener('abort', onAbort, { once: true });
      this.slotQueue.push(waiter);
      this.grantSlots();
    });
  }

  /** Gives free slots to the waiting ids in claim order, skipping one whose app runs its share already. */
  private grantSlots(): void {
    const cap = this.slotCap();
    for (let i = 0; i < this.slotQueue.length && this.busy < this.config.executorConcurrency;) {
      const { taken, grant } = this.slotQueue[i];
      if (taken.appId !== null && (this.appRunning.get(taken.appId) ?? 0) >= cap) {
        i++;
        continue;
      }
      this.slotQueue.splice(i, 1);
      taken.state = 'running';
      this.waiting--;
      this.busy++;
      if (taken.appId !== null) add(this.appRunning, taken.appId, 1);
      grant();
    }
  }

  private handlerDone(t: Taken): void {
    if (t.state === 'over') return;
    if (t.state === 'running') {
      this.busy--;
      this.ahead.slotFreed();
      if (t.appId !== null) add(this.appRunning, t.appId, -1);
    } else {
      this.waiting--;
      const at = this.slotQueue.findIndex((w) => w.taken === t);
      if (at >= 0) this.slotQueue.splice(at, 1)[0].grant();
    }
    t.state = 'over';
    if (t.appId !== null) add(this.appHeld, t.appId, -1);
    this.grantSlots();
    this.loopWaiter?.();
    if (!this.slotFreed.signal.aborted) this.slotFreed.abort();
  }
}

/** Adds `n` to `key`'s count in `map`, dropping the key at 0. */
function add(map: Map<string, number>, key: string, n: number): void {
  const v = (map.get(key) ?? 0) + n;
  if (v > 0) map.set(key, v);
  else map.delete(key);
}
