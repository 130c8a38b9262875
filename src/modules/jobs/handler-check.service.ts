import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock, ValidationError } from '../../common/index.js';
import { checkBuiltinParams } from '../execution/index.js';
import { type JobDefinition, type JobInstance, JobInstanceStatus, Scope } from '../metadata/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { mayTake, NodeRegistryService } from '../dispatch/index.js';
import { EGRESS_POLICY, EgressPolicy } from '../egress/index.js';
import { type Caller, requireScope } from './caller.js';

/** The privileged built-in handler: only apps with the `shell` scope submit work for it. */
const SHELL = 'shell';

/**
 * Refuses work nothing could ever run, or that the caller may not submit. `shell` needs the `shell` scope in
 * every shape. Standalone, the only executor is this process: a handler it lacks is refused. Clustered, any
 * handler is accepted and waits PENDING for an executor, except `shell`, which never waits. Built-in params
 * (`http`, `shell`, egress without DNS) are checked by the parser the handler itself runs (README "Egress policy").
 */
@Injectable()
export class HandlerCheckService {
  constructor(
    private readonly registry: NodeRegistryService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(EGRESS_POLICY) private readonly egress: EgressPolicy,
  ) {}

  /** @throws ForbiddenError(shell) for `shell` without the `shell` scope (`admin` does not imply it). */
  assertMayUse(caller: Caller, handler: string, field = 'handler'): void {
    if (handler === SHELL) requireScope(caller, Scope.SHELL, `${field} is 'shell', which runs commands on executors`);
  }

  /**
   * Only nodes that could take `appId`'s work count: trusted executors and that app's own workers (docs/workers.md).
   * @param appId the app whose work it is (the task's, the job's owner).
   * @param field what the error names (e.g. `tasks[3].handler` in a batch).
   * @throws ValidationError(field): standalone, no such handler here; clustered, `shell` with no live executor.
   */
  async assertRunnable(handler: string, appId: string, field = 'handler'): Promise<void> {
    if (this.config.shape !== 'standalone') {
      if (handler !== SHELL || (await this.registry.candidates(handler, appId)).length > 0) return;
      throw new ValidationError(
        field,
        "no live executor advertises handler 'shell' (an executor runs it only with TICKWHEEL_ALLOW_SHELL=true); " +
          'shell work is never accepted to wait for one',
      );
    }
    if ((await this.registry.candidates(handler, appId)).length > 0) return;
    const nodes = (await this.registry.liveNodes()).filter((n) => mayTake(n, appId));
    const known = [...new Set(nodes.flatMap((n) => n.info.handlers))].sort();
    const hint = handler === 'shell' ? '; the shell handler is off unless TICKWHEEL_ALLOW_SHELL=true' : '';
    throw new ValidationError(
      field,
      `no handler '${handler}' in this process (it has: ${known.join(', ') || 'none'})${hint}`,
    );
  }

  /** Why a due PENDING instance is not moving (no live executor has its handler), or undefined; never stored. */
  async waitingNote(row: JobInstance): Promise<string | undefined> {
    if (row.status !== JobInstanceStatus.PENDING || row.dueAt > this.clock.now()) return undefined;
    if ((await this.registry.candidates(row.handler, row.appId)).length > 0) return undefined;
    return `no live executor advertises handler '${row.handler}': it stays PENDING until one does`;
  }

  /** Refuses params a built-in handler would refuse. @throws ValidationError(`<prefix>params.<field>`). */
  checkParams(handler: string, params: unknown, prefix = '', note = ''): void {
    try {
      checkBuiltinParams(handler, params, this.egress);
    } catch (err) {
      if (err instanceof ValidationError) {
        const field = `${prefix}${err.field ?? 'params'}`;
        throw new ValidationError(field, `${field} ${err.message}${note}`);
      }
      throw err;
    }
  }

  /**
   * {@link checkParams} for each fire of `def`: its params (or a trigger-now's) with each shard's shardParams
   * merged over them, as the trigger does. @throws ValidationError naming the field (and shard).
   */
  checkJobParams(
    def: Pick<JobDefinition, 'handler' | 'params' | 'shardTotal' | 'shardParams'>,
    params?: Record<string, unknown>,
  ): void {
    const base = params ?? def.params ?? {};
    const total = Math.max(1, def.shardTotal ?? 1);
    for (let i = 0; i < total; i++) {
      const own = def.shardParams?.[i] as Record<string, unknown> | undefined;
      this.checkParams(
        def.handler,
        own ? { ...base, ...own } : base,
        '',
        own ? ` (shard ${i}: params with shardParams[${i}] over them)` : '',
      );
    }
  }
}
