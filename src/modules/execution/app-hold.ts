import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/index.js';
import { InstanceTransitions, type JobInstance, JobInstanceStatus as S } from '../metadata/index.js';
import { AppStates } from './app-states.js';
import { decideOutcome } from './outcome-policy.js';

/**
 * The claim's gate for disabled clients (docs/tenancy.md "Disabled clients"): of the DISPATCHED rows a node is about
 * to claim, those of an app whose client is disabled are not started but handed back to PENDING, same attempt (as a
 * draining executor hands back what it has not started), where they wait: dispatch and the reconciler leave them
 * out until the client is enabled again. Costs no read per claim: {@link AppStates} caches each app.
 */
@Injectable()
export class AppHold {
  private readonly logger = new Logger(AppHold.name);

  constructor(
    @Inject(AppStates) private readonly states: Pick<AppStates, 'disabledAmong'>,
    @Inject(InstanceTransitions) private readonly transitions: Pick<InstanceTransitions, 'transition'>,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The rows of `rows` that may start; the others are handed back (a lost race leaves a row as it is). */
  async startable<R extends JobInstance>(rows: R[], nodeId: string): Promise<R[]> {
    if (rows.length === 0) return rows;
    const held = await this.states.disabledAmong(rows.map((r) => r.appId));
    if (held.size === 0) return rows;
    for (const row of rows.filter((r) => held.has(r.appId))) {
      const now = this.clock.now();
      const back = decideOutcome(row, { kind: 'notStarted' }, now);
      await this.transitions.transition(
        row.id,
        S.DISPATCHED,
        back.status,
        { attempt: row.attempt, nodeId },
        back.patch,
        now,
      );
    }
    this.logger.log(`held back work of disabled client(s) ${[...held].join(', ')}: it waits until they are enabled`);
    return rows.filter((r) => !held.has(r.appId));
  }
}
