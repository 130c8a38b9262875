import { Inject, Injectable } from '@nestjs/common';
import { ValidationError } from '../../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { NodeRegistryService } from '../../dispatch/index.js';

/**
 * Refuses work nothing could ever run. Standalone, the only executor is this process, so a handler it
 * does not advertise is a 400 naming `handler` (instead of a task that stays PENDING for ever). Clustered,
 * executors come and go independently of the API, so any handler name is accepted and waits PENDING
 * until a node advertising it appears.
 */
@Injectable()
export class HandlerCheckService {
  constructor(
    private readonly registry: NodeRegistryService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * @param field what the error names (e.g. `tasks[3].handler` in a batch).
   * @throws ValidationError(field) standalone, when this process has no such handler.
   */
  async assertRunnable(handler: string, field = 'handler'): Promise<void> {
    if (this.config.shape !== 'standalone') return;
    if ((await this.registry.candidates(handler)).length > 0) return;
    const known = [...new Set((await this.registry.liveNodes()).flatMap((n) => n.info.handlers))].sort();
    const hint = handler === 'shell' ? '; the shell handler is off unless TICKWHEEL_ALLOW_SHELL=true' : '';
    throw new ValidationError(field, `no handler '${handler}' in this process (it has: ${known.join(', ') || 'none'})${hint}`);
  }
}
