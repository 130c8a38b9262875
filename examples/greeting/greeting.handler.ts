import { Injectable } from '@nestjs/common';
import { JobContext, JobFailure, JobHandler, JobHandlerImpl } from 'tickwheel/worker';

/**
 * The handler contract comes from `tickwheel/worker` (`tickwheel/executor` exports the same): main.ts runs it on a
 * trusted executor, worker.ts as an app worker, which must not load the executor's database and Redis clients.
 *
 * An application's own handler: a Nest provider marked `@JobHandler('greeting.hello')`.
 * Params: `{ name: string }`. It may be retried, so its side effects must be idempotent: use
 * `ctx.requestId` as the idempotency key and `ctx.fencingToken` to make writes conditional.
 */
@Injectable()
@JobHandler('greeting.hello')
export class GreetingHandler implements JobHandlerImpl {
  async execute(ctx: JobContext): Promise<{ greeting: string; attempt: number; fencingToken: number }> {
    const { name } = (ctx.params ?? {}) as { name?: unknown };
    if (typeof name !== 'string' || name.trim() === '') throw new JobFailure('params.name must be a non-empty string');
    ctx.log.info(`greeting ${name}, attempt ${ctx.attempt}`); // kept with the task: GET /api/tasks/{id}/logs
    ctx.progress(0.5, `greeting ${name}`);
    if (ctx.signal.aborted) throw new Error('aborted');
    return { greeting: `Hello, ${name}!`, attempt: ctx.attempt, fencingToken: ctx.fencingToken };
  }
}
