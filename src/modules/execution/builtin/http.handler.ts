import { Injectable } from '@nestjs/common';
import { JobContext, JobFailure, JobHandlerImpl } from '../job-context.js';
import { JobHandler } from '../job-handler.decorator.js';
import { HttpCallResult, runHttpCall } from './http-call.js';

/**
 * Built-in `http` handler: makes the request described by the params (method, url, headers, body,
 * timeoutMs) and keeps the status and a bounded excerpt of the body as the result. A status of 400 or
 * more fails the attempt (retried if attempts remain) and still records that result.
 * The header `X-Tickwheel-Request-Id` carries the idempotency key, so the receiver can deduplicate.
 */
@Injectable()
@JobHandler('http')
export class HttpJobHandler implements JobHandlerImpl {
  async execute(ctx: JobContext): Promise<HttpCallResult> {
    const p = (ctx.params ?? {}) as Record<string, unknown>;
    const headers = { ...((p.headers as Record<string, string>) ?? {}), 'X-Tickwheel-Request-Id': ctx.requestId };
    const result = await runHttpCall({ ...p, headers }, ctx.signal);
    if (result.status >= 400) throw new JobFailure(`HTTP ${result.status}`, result);
    return result;
  }
}
