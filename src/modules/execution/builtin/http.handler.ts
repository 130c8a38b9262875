import { Inject, Injectable } from '@nestjs/common';
import {
  APP_EGRESS_ALLOW,
  type AppEgressAllow,
  EGRESS_POLICY,
  EGRESS_RESOLVER,
  EgressPolicy,
  EgressRefusedError,
  type EgressResolver,
} from '../../egress/index.js';
import { JobContext, JobFailure, JobHandler, JobHandlerImpl } from '../../handler/index.js';
import { HttpCallResult, isPlainObject, runHttpCall } from './http-call.js';

/** Headers added to every request so the receiver can deduplicate (request id) and fence (token) its writes. */
export const TICKWHEEL_HTTP_HEADERS = {
  requestId: 'X-Tickwheel-Request-Id',
  instanceId: 'X-Tickwheel-Instance-Id',
  attempt: 'X-Tickwheel-Attempt',
  fencingToken: 'X-Tickwheel-Fencing-Token',
} as const;

/**
 * Built-in `http` handler: makes the request of the params, keeps the status and a bounded body excerpt as the
 * result; 400 or more fails the attempt with that result. Every hop goes through the egress policy narrowed to the
 * app's list (README "Egress policy"): a refused one fails the instance at once. {@link TICKWHEEL_HTTP_HEADERS}
 * replace any params header of the same name.
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
      // The attempt's span as the call's parent (W3C trace context); it replaces one given in params.headers.
      ...(ctx.traceparent ? { traceparent: ctx.traceparent } : {}),
    };
    // Malformed headers go through untouched, so the call's validation names params.headers.
    const given = p.headers === undefined ? {} : p.headers;
    const ownNames = new Set(Object.keys(own).map((h) => h.toLowerCase()));
    const headers = isPlainObject(given)
      ? { ...Object.fromEntries(Object.entries(given).filter(([name]) => !ownNames.has(name.toLowerCase()))), ...own }
      : given;
    const policy = this.policy.narrowedTo(await this.appEgressAllow(ctx.appId));
    let result: HttpCallResult;
    const started = Date.now();
    const call = `${typeof p.method === 'string' ? p.method : 'GET'} ${withoutQuery(p.url)}`;
    try {
      result = await runHttpCall({ ...p, headers }, ctx.signal, { policy, resolver: this.resolver });
    } catch (err) {
      ctx.log.warn(`${call} failed after ${Date.now() - started} ms: ${(err as Error).message}`);
      if (err instanceof EgressRefusedError) throw new JobFailure(err.message, undefined, { retryable: false });
      throw err;
    }
    ctx.log.info(`${call} answered ${result.status} in ${result.durationMs} ms`);
    if (result.status >= 400) throw new JobFailure(`HTTP ${result.status}`, result);
    return result;
  }
}

/** The URL for a log line: origin and path only (a query string may carry a token). */
function withoutQuery(url: unknown): string {
  if (typeof url !== 'string') return '(no url)';
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '(invalid url)';
  }
}
