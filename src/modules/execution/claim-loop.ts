import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { type ClaimedItem, type ClaimShare, NODE_QUEUES, type NodeQueuePort } from '../coordination/index.js';
import { AckBuffer } from './ack-buffer.js';
import { sleep } from './clock-timers.js';
import { TaskRunner } from './task-runner.service.js';

const CLAIM_WAIT_MS = 1000;
const CLAIM_ERROR_PAUSE_MS = 500;
/** Ids in flight (running or finishing) per worker slot, at most. */
const FINISHING_FACTOR = 4;

/**
 * Takes ids off this node's queue (docs/dispatch.md "Node queues") while worker slots (EXECUTOR_CONCURRENCY) are
 * free, round robin across apps, none past its {@link share}. A slot frees when its handler ends, so claims overlap
 * the finishing writes; at most FINISHING_FACTOR × EXECUTOR_CONCURRENCY ids are in flight (a slow database holds
 * back claims instead of piling up finished work). Ended ids are acked in groups.
 */
@Injectable()
export class ClaimLoop {
  private readonly logger = new Logger(ClaimLoop.name);
  private stopping = false;
  private loop: Promise<void> = Promise.resolve();
  private slotWaiter: (() => void) | null = null;
  private inFlightCount = 0;
  /** Worker slots in use (ids whose handler has not ended), in all and by app; each id's apps, once per copy. */
  private busy = 0;
  private readonly appSlots = new Map<string, number>();
  private readonly slotApps = new Map<string, Array<string | null>>();
  /** Aborted when a slot frees: ends a claim that waits only because every app with work holds its share. */
  private slotFreed = new AbortController();
  private nodeId = '';
  private readonly acks: AckBuffer;

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
  }

  /** Ids taken from the queue whose run has not ended (claimed or not yet, or finishing). */
  get inFlight(): number {
    return this.inFlightCount;
  }

  /** Starts claiming for `nodeId`; handlers run with `shutdown` as their node's shutdown signal. */
  start(nodeId: string, shutdown: AbortSignal): void {
    this.nodeId = nodeId;
    this.loop = this.run(shutdown);
  }

  /** Stops claiming; resolves once the loop has ended (what it started goes on running). */
  async stop(): Promise<void> {
    this.stopping = true;
    this.slotWaiter?.();
    await this.loop;
  }

  async retryAcks(): Promise<void> {
    await this.acks.retry();
  }

  private async run(shutdown: AbortSignal): Promise<void> {
    const workers = this.config.executorConcurrency;
    while (!this.stopping) {
      const free = Math.min(workers - this.busy, FINISHING_FACTOR * workers - this.inFlightCount);
      if (free <= 0) {
        await new Promise<void>((resolve) => (this.slotWaiter = resolve));
        this.slotWaiter = null;
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
   * EXECUTOR_APP_SHARE (README "Fair sharing"): an app holds at most max(1, ⌊EXECUTOR_CONCURRENCY × share⌋) slots
   * here, so room stays for other apps (a running handler is never preempted).
   */
  private share(): ClaimShare {
    const cap = Math.max(1, Math.floor(this.config.executorConcurrency * this.config.executorAppShare));
    return { cap, held: this.appSlots, freed: this.slotFreed.signal };
  }

  private startRuns(items: ClaimedItem[], shutdown: AbortSignal): void {
    this.inFlightCount += items.length;
    this.busy += items.length;
    for (const { id, appId } of items) {
      this.slotApps.set(id, [...(this.slotApps.get(id) ?? []), appId]);
      if (appId !== null) this.appSlots.set(appId, (this.appSlots.get(appId) ?? 0) + 1);
    }
    void this.runner.runMany(
      items.map((i) => i.id),
      this.nodeId,
      shutdown,
      {
        handlerDone: (id) => {
          this.busy--;
          this.freeAppSlot(id);
          this.slotWaiter?.();
          if (!this.slotFreed.signal.aborted) this.slotFreed.abort();
        },
        ended: (id) => {
          void this.acks.submit(id).finally(() => {
            this.inFlightCount--;
            this.slotWaiter?.();
          });
        },
      },
    );
  }

  private freeAppSlot(id: string): void {
    const apps = this.slotApps.get(id);
    const appId = apps?.shift();
    if (apps?.length === 0) this.slotApps.delete(id);
    if (appId === undefined || appId === null) return;
    const n = (this.appSlots.get(appId) ?? 1) - 1;
    if (n > 0) this.appSlots.set(appId, n);
    else this.appSlots.delete(appId);
  }
}
