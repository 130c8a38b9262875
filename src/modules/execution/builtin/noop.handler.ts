import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import { ValidationError } from '../../../common/index.js';
import { JobContext, JobHandler, JobHandlerImpl } from '../../handler/index.js';

/** What the `noop` handler records: always the same few bytes. */
export interface NoopResult {
  ok: true;
}

/**
 * Optional `noop` params for benchmarks (bench/README.md): `sleepMs` (integer 0..60,000) waits that long first,
 * a handler of known duration; `progress: true` reports progress 1 once, `checkpoint: true` stores one small
 * checkpoint. Other keys are ignored.
 */
export interface NoopParams {
  sleepMs?: number;
  progress?: boolean;
  checkpoint?: boolean;
}

/** The longest `noop` sleep, ms. */
export const NOOP_MAX_SLEEP_MS = 60_000;

const RESULT: NoopResult = Object.freeze({ ok: true as const });

/**
 * Checks the `noop` params it reads ({@link NoopParams}) on submit.
 * @throws ValidationError naming `params.progress` or `params.checkpoint` when one is not a boolean, or
 *   `params.sleepMs` when it is not an integer from 0 to {@link NOOP_MAX_SLEEP_MS}.
 */
export function parseNoopParams(params: unknown): NoopParams {
  const p = (params ?? {}) as Record<string, unknown>;
  for (const key of ['progress', 'checkpoint'] as const) {
    if (p[key] !== undefined && typeof p[key] !== 'boolean')
      throw new ValidationError(`params.${key}`, 'must be a boolean');
  }
  const { sleepMs } = p;
  const sleepOk =
    typeof sleepMs === 'number' && Number.isInteger(sleepMs) && sleepMs >= 0 && sleepMs <= NOOP_MAX_SLEEP_MS;
  if (sleepMs !== undefined && !sleepOk)
    throw new ValidationError('params.sleepMs', `must be an integer from 0 to ${NOOP_MAX_SLEEP_MS} (milliseconds)`);
  const out: NoopParams = { progress: p.progress === true, checkpoint: p.checkpoint === true };
  if (sleepMs !== undefined) out.sleepMs = sleepMs as number;
  return out;
}

/**
 * Built-in `noop` handler: succeeds with `{"ok": true}` (benchmarks, end-to-end probes); with {@link NoopParams}
 * it first sleeps `sleepMs`, then reports progress and/or stores a checkpoint.
 * @throws Error named 'AbortError' when the attempt's signal fires during the sleep (the sleep ends then).
 */
@Injectable()
@JobHandler('noop')
export class NoopJobHandler implements JobHandlerImpl {
  async execute(ctx: JobContext): Promise<NoopResult> {
    const p = ctx.params as NoopParams | null;
    if (typeof p?.sleepMs === 'number' && p.sleepMs > 0) await sleep(p.sleepMs, undefined, { signal: ctx.signal });
    if (p?.progress === true) ctx.progress(1, 'noop');
    if (p?.checkpoint === true) await ctx.checkpoint({ noop: true });
    return RESULT;
  }
}
