import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/index.js';
import { NODE_QUEUES, type NodeQueuePort } from '../coordination/index.js';
import { RemoteAttempts } from '../execution/index.js';
import type { WorkerAttempt } from '../handler/index.js';
import { WorkerNodes, type WorkerNode } from './worker-nodes.js';

/** Claims that may wait on Redis at once in this process, in all and per app (each holds a blocking connection). */
export const CLAIM_WAITS_PER_PROCESS = 64;
export const CLAIM_WAITS_PER_APP = 8;
/** RUNNING rows a node may hold per capacity: its handlers, and as many finishes on their way (docs/workers.md). */
export const RUNNING_PER_CAPACITY = 2;

/**
 * An app worker's claim (docs/workers.md `claims`): up to `max` ids off its node's queue while it holds fewer than
 * RUNNING_PER_CAPACITY × capacity RUNNING rows,
 * claimed as the task runner does ({@link RemoteAttempts.claim}), then acked. A waiting claim holds a blocking Redis
 * connection: past the per-app or per-process bound it waits on a timer here, then looks once more.
 */
@Injectable()
export class WorkerClaims {
  private waiting = 0;
  private readonly waitingByApp = new Map<string, number>();

  constructor(
    @Inject(NODE_QUEUES) private readonly queues: Pick<NodeQueuePort, 'claimMany' | 'ackMany'>,
    @Inject(RemoteAttempts) private readonly attempts: Pick<RemoteAttempts, 'claim'>,
    @Inject(WorkerNodes) private readonly nodes: Pick<WorkerNodes, 'running'>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The attempts claimed for `node` (maybe none after `waitMs`). */
  async claim(node: WorkerNode, max: number, waitMs: number): Promise<WorkerAttempt[]> {
    const free = Math.min(max, RUNNING_PER_CAPACITY * node.row.capacity - (await this.nodes.running(node)));
    if (free <= 0) {
      await this.sleep(waitMs);
      return [];
    }
    const ids = await this.take(node, free, waitMs);
    if (ids.length === 0) return [];
    try {
      return await this.attempts.claim(node, ids);
    } finally {
      // Unclaimed rows stay DISPATCHED: the reconciler pushes an id found in no queue again.
      await this.queues.ackMany(node.nodeId, ids).catch(() => undefined);
    }
  }

  private async take(node: WorkerNode, n: number, waitMs: number): Promise<string[]> {
    const app = node.appId;
    const mine = this.waitingByApp.get(app) ?? 0;
    if (waitMs <= 0 || this.waiting >= CLAIM_WAITS_PER_PROCESS || mine >= CLAIM_WAITS_PER_APP) {
      const now = await this.queues.claimMany(node.nodeId, n, 0);
      if (now.length > 0 || waitMs <= 0) return now.map((i) => i.id);
      await this.sleep(waitMs);
      return (await this.queues.claimMany(node.nodeId, n, 0)).map((i) => i.id);
    }
    this.waiting++;
    this.waitingByApp.set(app, mine + 1);
    try {
      return (await this.queues.claimMany(node.nodeId, n, waitMs)).map((i) => i.id);
    } finally {
      this.waiting--;
      const left = (this.waitingByApp.get(app) ?? 1) - 1;
      if (left > 0) this.waitingByApp.set(app, left);
      else this.waitingByApp.delete(app);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.clock.schedule(Math.max(0, ms), resolve));
  }
}
