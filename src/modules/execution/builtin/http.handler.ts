import { Inject, Injectable } from '@nestjs/common';
import { APP_EGRESS_ALLOW, type AppEgressAllow, EGRESS_POLICY, EGRESS_RESOLVER, EgressPolicy, EgressRefusedError, type EgressResolver } from '../../egress/index.js';
import { JobContext, JobFailure, JobHandlerImpl } from '../job-context.js';
import { JobHandler } from '../job-handler.decorator.js';
import { HttpCallResult, isPlainObject, runHttpCall } from './http-call.js';

/**
 * Headers the `http` handler adds to every request, so the receiver can deduplicate and fence its own
 * writes: the request id (stable across attempts), the instance id, the attempt (1-based) and the
 * attempt's fencing token (grows with every attempt; a write carrying a smaller one is stale).
 */
export const TICKWHEEL_HTTP_HEADERS = {
  requestId: 'X-Tickwheel-Request-Id',
  instanceId: 'X-Tickwheel-Instance-Id',
  attempt: 'X-Tickwheel-Attempt',
  fencingToken: 'X-Tickwheel-Fencing-Token',
} as const;

/**
 * Built-in `http` handler: makes the request described by the params (method, url, headers, body,
 * timeoutMs) and keeps the status and a bounded excerpt of the body as the result. A status of 400 or
 * more fails the attempt (retried if attempts remain) and still records that result.
 * Every hop goes through the egress policy (README "Egress policy"), narrowed to the app's own list: a
 * refused destination fails the instance at once, without a retry.
 * The headers of {@link TICKWHEEL_HTTP_HEADERS} carry the idempotency key, the attempt and its fencing
 * token; they replace any params header of the same name (in any case).
 */
@Injectable()
@JobHandler('http')
export class HttpJobHandler implements JobHandlerImpl {
  constructor(
    @Inject(EGRESS_POLICY) private readonly policy: EgressPolicy,
    @Inject(APP_EGRESS_ALLOW) private readonly appEgressAllow: AppEgressAllow,
    @Inject(EGRESS_RESOLVER) private readonly resolver: EgressResolver,
  ) {}

  async execute(ctx: JobContext): Promise<HttpCallResult> {
    const p = (ctx.params ?? {}) as Record<string, unknown>;
    const own: Record<string, string> = {
      [TICKWHEEL_HTTP_HEADERS.requestId]: ctx.requestId,
      [TICKWHEEL_HTTP_HEADERS.instanceId]: ctx.instanceId,
      [TICKWHEEL_HTTP_HEADERS.attempt]: String(ctx.attempt),
      [TICKWHEEL_HTTP_HEADERS.fencingToken]: String(ctx.fencingToken),
    };
    // Malformed headers go through untouched, so the call's validation names params.headers.
    const given = p.headers === undefined ? {} : p.headers;
    const ownNames = new Set(Object.keys(own).map((h) => h.toLowerCase()));
    const headers = isPlainObject(given)
      ? { ...Object.fromEntries(Object.entries(given).filter(([name]) => !ownNames.has(name.toLowerCase()))), ...own }
      : given;
    const policy = this.policy.narrowedTo(await this.appEgressAllow(ctx.appId));
    let result: HttpCallResult;
    try {
      result = await runHttpCall({ ...p, headers }, ctx.signal, { policy, resolver: this.resolver });
    } catch (err) {
      if (err instanceof EgressRefusedError) throw new JobFailure(err.message, undefined, { retryable: false });
      throw err;
    }
    if (result.status >= 400) throw new JobFailure(`HTTP ${result.status}`, result);
    return result;
  }
}
