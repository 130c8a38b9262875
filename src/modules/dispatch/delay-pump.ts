import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/index.js';
import { DELAY_QUEUE, type DelayQueuePort } from '../coordination/index.js';
import { InstanceReads } from '../metadata/index.js';
import { DispatchService, type Release } from './dispatch.service.js';

const PAGE = 500;
/** Pages of the delay queue one pump takes at most (a burst due at once goes in one pump, a backlog over several). */
const PUMP_PAGES = 20;

/**
 * The delay-queue pump (docs/dispatch.md "Delayed tasks"): the work of one pump. When it runs, every
 * DELAY_PUMP_MS and on a `delay-due` wake-up, is the leader's (trigger's `LeaderDuties`).
 */
@Injectable()
export class DelayPump {
  constructor(
    @Inject(DELAY_QUEUE) private readonly coordination: DelayQueuePort,
    private readonly dispatch: DispatchService,
    private readonly reads: InstanceReads,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Takes the ids due within `leadMs` (ms) out of the delay queue, page after page: due ones are dispatched, the
   * rest staged ({@link DispatchService.stageDelayed}). @returns their releases, for the caller to deliver at their
   * due time. A failure leaves rows PENDING: the repair pass dispatches them once due.
   */
  async pumpDelayed(leadMs = 0): Promise<Release[]> {
    const releases: Release[] = [];
    for (let page = 0; page < PUMP_PAGES; page++) {
      const ids = await this.coordination.takeDue(this.clock.now() + leadMs, PAGE);
      if (ids.length > 0) releases.push(...(await this.dispatch.stageDelayed(await this.reads.findByIds(ids))));
      if (ids.length < PAGE) break;
    }
    return releases;
  }
}
