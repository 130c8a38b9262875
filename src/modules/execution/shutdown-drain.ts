import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { DelayFeed, NODE_QUEUES, type NodeQueuePort } from '../coordination/index.js';
import { handBackMark, InstanceReads, InstanceTransitions, JobInstanceStatus as S } from '../metadata/index.js';
import { sleep } from './clock-timers.js';
import { decideOutcome } from './outcome-policy.js';
import { TaskRunner } from './task-runner.service.js';

const HAND_BACK_PAGE = 10_000;
/** How often a drain says what it still waits for (ms). */
export const DRAIN_REPORT_MS = 2_000;

/**
 * The executor's drain on shutdown (docs/execution.md "Graceful shutdown"): what has not started goes back at
 * once; running work gets EXECUTOR_SHUTDOWN_GRACE_MS, then is aborted and handed back by the runner.
 */
@Injectable()
export class ShutdownDrain {
  private readonly logger = new Logger(ShutdownDrain.name);

  constructor(
    @Inject(TaskRunner) private readonly runner: Pick<TaskRunner, 'running'>,
    private readonly reads: InstanceReads,
    private readonly transitions: InstanceTransitions,
    @Inject(NODE_QUEUES) private readonly queues: NodeQueuePort,
    private readonly delays: DelayFeed,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Empties `nodeId`'s lists and moves every row still DISPATCHED to it back to PENDING, same attempt, into the
   * delay queue at its due time; conditional, so a row a claim took stays with it. A staged fire whose id was in
   * neither list was never released: it stays staged. Returns how many went back. Never throws: failing that, the
   * reconciler takes them back once this node is gone.
   */
  async handBackQueued(nodeId: string): Promise<number> {
    try {
      const pushed = new Set(await this.queues.drainNode(nodeId));
      const rows = await this.reads.findOnNode(nodeId, [S.DISPATCHED], HAND_BACK_PAGE);
      let n = 0;
      for (const row of rows) {
        const now = this.clock.now();
        const back = decideOutcome(row, { kind: 'notStarted' }, now);
        const won = await this.transitions.transition(
          row.id,
          S.DISPATCHED,
          back.status,
          { attempt: row.attempt, nodeId },
          back.patch,
          now,
          undefined,
          handBackMark(row, pushed),
        );
        if (!won) continue;
        await this.delays.schedule(row.id, back.dueAt);
        n++;
      }
      if (n > 0) this.delays.wakePump();
      return n;
    } catch (err) {
      this.logger.warn(`handing back queued work failed: ${(err as Error).message}`);
      return 0;
    }
  }

  /**
   * Waits up to the grace for `inFlight()` to reach 0, then `abort()`s and waits for the rest; counts both.
   * Logs what it waits for (attempts, handlers, grace left) at once and every {@link DRAIN_REPORT_MS}.
   */
  async awaitRunning(inFlight: () => number, abort: () => void): Promise<{ running: number; aborted: number }> {
    const running = inFlight();
    const grace = this.config.executorShutdownGraceMs;
    const deadline = this.clock.now() + grace;
    let reportAt = this.clock.now();
    while (inFlight() > 0 && this.clock.now() < deadline) {
      if (this.clock.now() >= reportAt) {
        reportAt += DRAIN_REPORT_MS;
        const left = deadline - this.clock.now();
        this.logger.log(`shutdown: waiting for ${this.describe(inFlight())}; ${left} ms of the ${grace} ms grace left`);
      }
      await sleep(this.clock, 50);
    }
    const aborted = inFlight();
    if (aborted > 0) this.logger.warn(`shutdown: grace over, aborting ${this.describe(aborted)}`);
    abort();
    const abortedAt = this.clock.now();
    reportAt = abortedAt + DRAIN_REPORT_MS;
    while (inFlight() > 0) {
      if (this.clock.now() >= reportAt) {
        reportAt += DRAIN_REPORT_MS;
        this.logger.warn(
          `shutdown: still waiting for ${this.describe(inFlight())} to return, ${this.clock.now() - abortedAt} ms ` +
            'after the abort (a handler that ignores its signal keeps the process up)',
        );
      }
      await sleep(this.clock, 20);
    }
    return { running, aborted };
  }

  /** "3 attempt(s) (handlers http ×2, shell ×1)": the running attempts by handler, from the runner. */
  private describe(inFlight: number): string {
    const byHandler = new Map<string, number>();
    for (const a of this.runner.running.values()) byHandler.set(a.handler, (byHandler.get(a.handler) ?? 0) + 1);
    const handlers = [...byHandler].map(([h, n]) => `${h} ×${n}`).join(', ');
    return `${inFlight} attempt(s) (${handlers ? `handlers ${handlers}` : 'writing their outcome'})`;
  }
}
