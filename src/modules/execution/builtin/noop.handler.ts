import { Injectable } from '@nestjs/common';
import { JobContext, JobHandlerImpl } from '../job-context.js';
import { JobHandler } from '../job-handler.decorator.js';

/** What the `noop` handler records: always the same few bytes. */
export interface NoopResult {
  ok: true;
}

const RESULT: NoopResult = Object.freeze({ ok: true as const });

/**
 * Built-in `noop` handler, always registered: ignores its params and succeeds at once with `{"ok": true}`.
 * It measures the framework itself (submit, dispatch, claim, record) with no work in between, as
 * `npm run bench:dispatch` does, and is a harmless probe that a cluster runs tasks end to end.
 */
@Injectable()
@JobHandler('noop')
export class NoopJobHandler implements JobHandlerImpl {
  execute(_ctx: JobContext): Promise<NoopResult> {
    return Promise.resolve(RESULT);
  }
}
