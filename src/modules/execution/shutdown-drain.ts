import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { COORDINATION, type CoordinationPort } from '../coordination/index.js';
import { JobInstanceRepository, JobInstanceStatus as S } from '../metadata/index.js';
import { sleep } from './clock-timers.js';
import { decideOutcome } from './outcome-policy.js';
import { TaskRunner } from './task-runner.service.js';

/** Most queued rows one hand-back reads. */
const HAND_BACK_PAGE = 10_000;

/**
 * The executor's drain on shutdown (docs/execution.md "Graceful shutdown"): what was routed here and has not
 * started goes back at once; running work gets EXECUTOR_SHUTDOWN_GRACE_MS to finish, then is aborted and handed
 * back by the runner (PENDING, without using up an attempt).
 */
@Injectable()
export class ShutdownDrain {
  private readonly logger = new Logger(ShutdownDrain.name);

  constructor(
    private readonly runner: TaskRunner,
    private readonly instances: JobInstanceRepository,
    @Inject(COORDINATION) private readonly coordination: CoordinationPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Gives back what was routed to `nodeId` and has not started: every row still DISPATCHED to it (its ready
   * list, and fires staged for it ahead of their time) goes back to PENDING, same attempt, and into the delay
   * queue at its due time, which the leader's pump dispatches to another node. The lists are emptied too. Each
   * move is conditional, so a row a claim took meanwhile stays with the claim. Never throws: on a failure the
   * leader's reconciler takes the rows back once this node is gone.
   * @returns how many rows went back.
   */
  async handBackQueued(nodeId: string): Promise<number> {
    try {
      await this.coordination.drainNode(nodeId);
      const rows = await this.instances.findOnNode(nodeId, [S.DISPATCHED], HAND_BACK_PAGE);
      let n = 0;
      for (const row of rows) {
        const now = this.clock.now();
        const back = decideOutcome(row, { kind: 'notStarted' }, now);
        const won = await this.instances.transition(row.id, S.DISPATCHED, back.status, { attempt: row.attempt, nodeId },
          back.patch, now);
        if (!won) continue;
        await this.coordination.scheduleDelayed(row.id, back.dueAt);
        n++;
      }
      if (n > 0) this.runner.wakePump();
      return n;
    } catch (err) {
      this.logger.warn(`handing back queued work failed: ${(err as Error).message}`);
      return 0;
    }
  }

  /**
   * Waits up to EXECUTOR_SHUTDOWN_GRACE_MS for `inFlight()` to reach 0, then calls `abort()` and waits for the
   * aborted runs to end. Returns how many were in flight at the start, and how many were aborted.
   */
  async awaitRunning(inFlight: () => number, abort: () => void): Promise<{ running: number; aborted: number }> {
    const running = inFlight();
    const deadline = this.clock.now() + this.config.executorShutdownGraceMs;
    while (inFlight() > 0 && this.clock.now() < deadline) await sleep(this.clock, 50);
    const aborted = inFlight();
    abort();
    while (inFlight() > 0) await sleep(this.clock, 20);
    return { running, aborted };
  }
}
