import { Inject, Injectable } from '@nestjs/common';
import { DELAY_DUE_CHANNEL, type DelayQueuePort, type SignalPort } from './coordination.port.js';
import { DELAY_QUEUE, SIGNALS } from './coordination.tokens.js';

/**
 * The delay queue as dispatch and executors fill it (docs/dispatch.md "Delayed tasks"): ids go on it at their due
 * time, and a `delay-due` message wakes the leader's pump for one due before the pump would next look. When to wake
 * is the caller's rule; the message is a hint (a lost one costs one 200-ms pump interval).
 */
@Injectable()
export class DelayFeed {
  constructor(
    @Inject(DELAY_QUEUE) private readonly queue: DelayQueuePort,
    @Inject(SIGNALS) private readonly signals: SignalPort,
  ) {}

  /** Puts instance `id` on the delay queue, due at `dueAt` (epoch ms UTC). @throws the port's error. */
  schedule(id: string, dueAt: number): Promise<void> {
    return this.queue.scheduleDelayed(id, dueAt);
  }

  /** Asks the leader to pump the delay queue now. Never throws. */
  wakePump(): void {
    void this.signals.publish(DELAY_DUE_CHANNEL, '').catch(() => undefined);
  }
}
