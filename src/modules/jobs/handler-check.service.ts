import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock, ValidationError } from '../../common/index.js';
import { checkBuiltinParams } from '../execution/index.js';
import { type JobDefinition, type JobInstance, JobInstanceStatus, Scope } from '../metadata/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { NodeRegistryService } from '../dispatch/index.js';
import { EGRESS_POLICY, EgressPolicy } from '../egress/index.js';
import { type Caller, requireScope } from './caller.js';

/** The privileged built-in handler: only apps with the `shell` scope submit work for it (issue 9 point 3). */
const SHELL = 'shell';

/**
 * Refuses work nothing could ever run, or that the caller may not submit. `shell` needs the caller's
 * `shell` scope (a 403), in every shape. Standalone, the only executor is this process, so a handler it
 * does not advertise is a 400 naming `handler` (instead of a task that stays PENDING for ever). Clustered,
 * executors come and go independently of the API, so any handler name is accepted and waits PENDING until
 * a node advertising it appears — except `shell`, which is never accepted to wait: without a live executor
 * advertising it, a shell task, an enabled shell job or a trigger of one is a 400 naming `handler`. The
 * params of a built-in handler (`http`, `shell`) are checked in every shape, by the parser the handler
 * itself runs: what it would refuse is a 400, not a FAILED task later; an `http` url the egress policy
 * refuses without DNS is a 400 too (README "Egress policy").
 */
@Injectable()
export class HandlerCheckService {
  constructor(
    private readonly registry: NodeRegistryService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(EGRESS_POLICY) private readonly egress: EgressPolicy,
  ) {}

  /**
   * @param field what the error names (e.g. `tasks[3].handler` in a batch).
   * @throws ForbiddenError (403 naming `shell`) for the shell handler when `caller` lacks the `shell` scope
   *   (`admin` does not imply it).
   */
  assertMayUse(caller: Caller, handler: string, field = 'handler'): void {
    if (handler === SHELL) requireScope(caller, Scope.SHELL, `${field} is 'shell', which runs commands on executors`);
  }

  /**
   * @param field what the error names (e.g. `tasks[3].handler` in a batch).
   * @throws ValidationError(field) standalone, when this process has no such handler; clustered, for
   *   `shell` when no live executor advertises it.
   */
  async assertRunnable(handler: string, field = 'handler'): Promise<void> {
    if (this.config.shape !== 'standalone') {
      if (handler !== SHELL || (await this.registry.candidates(handler)).length > 0) return;
      throw new ValidationError(
        field,
        "no live executor advertises handler 'shell' (an executor runs it only with TICKWHEEL_ALLOW_SHELL=true); " +
          'shell work is never accepted to wait for one',
      );
    }
    if ((await this.registry.candidates(handler)).length > 0) return;
    const known = [...new Set((await this.registry.liveNodes()).flatMap((n) => n.info.handlers))].sort();
    const hint = handler === 'shell' ? '; the shell handler is off unless TICKWHEEL_ALLOW_SHELL=true' : '';
    throw new ValidationError(
      field,
      `no handler '${handler}' in this process (it has: ${known.join(', ') || 'none'})${hint}`,
    );
  }

  /**
   * Why a due PENDING instance is not moving, when the reason is that no live executor advertises its handler
   * (the rows stay PENDING until one does; only the scheduler's log said so). Read now, never stored.
   * @returns the note, or undefined when the instance is not waiting for an executor.
   */
  async waitingNote(row: JobInstance): Promise<string | undefined> {
    if (row.status !== JobInstanceStatus.PENDING || row.dueAt > this.clock.now()) return undefined;
    if ((await this.registry.candidates(row.handler)).length > 0) return undefined;
    return `no live executor advertises handler '${row.handler}': it stays PENDING until one does`;
  }

  /**
   * Refuses params a built-in handler would refuse when it runs (nothing for other handlers).
   * @param prefix put before the field named (e.g. `tasks[3].` in a batch).
   * @throws ValidationError(`<prefix>params.<field>`).
   */
  checkParams(handler: string, params: unknown, prefix = '', note = ''): void {
    try {
      checkBuiltinParams(handler, params, this.egress);
    } catch (err) {
      if (err instanceof ValidationError) {
        const field = `${prefix}${err.field ?? 'params'}`;
        // e.g. "params.url is required (an http:// or https:// URL)"
        throw new ValidationError(field, `${field} ${err.message}${note}`);
      }
      throw err;
    }
  }

  /**
   * {@link checkParams} for what each fire of job `def` will run: its params, with each shard's shardParams
   * merged over them (as the trigger does), or a trigger-now's own `params` instead of the job's.
   * @throws ValidationError naming the field, and the shard when the job is sharded.
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
