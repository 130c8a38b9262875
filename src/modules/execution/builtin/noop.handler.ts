import { Injectable } from '@nestjs/common';
import { ValidationError } from '../../../common/index.js';
import { JobContext, JobHandlerImpl } from '../job-context.js';
import { JobHandler } from '../job-handler.decorator.js';

/** What the `noop` handler records: always the same few bytes. */
export interface NoopResult {
  ok: true;
}

/**
 * Optional `noop` params for benchmarks of long-task reporting (bench/README.md): `progress: true` reports
 * progress 1 once, `checkpoint: true` stores one small checkpoint. Other keys are ignored.
 */
export interface NoopParams {
  progress?: boolean;
  checkpoint?: boolean;
}

const RESULT: NoopResult = Object.freeze({ ok: true as const });

/**
 * Checks the `noop` params it reads ({@link NoopParams}) on submit.
 * @throws ValidationError naming `params.progress` or `params.checkpoint` when one is not a boolean.
 */
export function parseNoopParams(params: unknown): NoopParams {
  const p = (params ?? {}) as Record<string, unknown>;
  for (const key of ['progress', 'checkpoint'] as const) {
    if (p[key] !== undefined && typeof p[key] !== 'boolean')
      throw new ValidationError(`params.${key}`, 'must be a boolean');
  }
  return { progress: p.progress === true, checkpoint: p.checkpoint === true };
}

/**
 * Built-in `noop` handler: succeeds at once with `{"ok": true}` (benchmarks, end-to-end probes); with
 * {@link NoopParams} it first reports progress and/or stores a checkpoint.
 */
@Injectable()
@JobHandler('noop')
export class NoopJobHandler implements JobHandlerImpl {
  async execute(ctx: JobContext): Promise<NoopResult> {
    const p = ctx.params as NoopParams | null;
    if (p?.progress === true) ctx.progress(1, 'noop');
    if (p?.checkpoint === true) await ctx.checkpoint({ noop: true });
    return RESULT;
  }
}
