import { Injectable } from '@nestjs/common';
import { JobContext, JobHandlerImpl } from '../job-context.js';
import { JobHandler } from '../job-handler.decorator.js';

/** What the `noop` handler records: always the same few bytes. */
export interface NoopResult {
  ok: true;
}

const RESULT: NoopResult = Object.freeze({ ok: true as const });

/** Built-in `noop` handler: succeeds at once with `{"ok": true}` (benchmarks, end-to-end probes). */
@Injectable()
@JobHandler('noop')
export class NoopJobHandler implements JobHandlerImpl {
  execute(_ctx: JobContext): Promise<NoopResult> {
    return Promise.resolve(RESULT);
  }
}
