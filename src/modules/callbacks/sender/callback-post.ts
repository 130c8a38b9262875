import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  CLOCK,
  type Clock,
  childContext,
  formatTraceparent,
  instanceTrace,
  type TraceContext,
} from '../../../common/index.js';
import { APP_CONFIG, type AppConfig, type CallbackSettings } from '../../../config/index.js';
import {
  EGRESS_POLICY,
  EGRESS_RESOLVER,
  egressHttp,
  EgressPolicy,
  EgressRefusedError,
  type EgressResolver,
} from '../../egress/index.js';
import { type JobInstance } from '../../metadata/index.js';
import { rowSpan, Tracing } from '../../tracing/index.js';
import { type TryResult } from './outcome.js';

/** One signed callback POST: where, what, through which policy, about which instance. */
export interface CallbackRequest {
  deliveryId: string;
  url: URL;
  body: string;
  headers: Record<string, string>;
  policy: EgressPolicy;
  instance: JobInstance;
  signal: AbortSignal;
}

/**
 * The HTTP side of a callback try (docs/callbacks.md "Sender"): the POST through the egress policy with the
 * connect and head timeouts, no redirects, the instance's trace as a `traceparent` header (a new span of its trace,
 * parent its submit or fire), that span recorded with the answer. The sender decides what the answer means.
 */
@Injectable()
export class CallbackPost {
  private readonly logger = new Logger('CallbackSender');
  private readonly settings: CallbackSettings;

  constructor(
    @Inject(EGRESS_POLICY) private readonly policy: EgressPolicy,
    @Inject(EGRESS_RESOLVER) private readonly resolver: EgressResolver,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'callbacks'>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(Tracing) private readonly tracing: Pick<Tracing, 'record'>,
  ) {
    this.settings = config.callbacks;
  }

  /** The egress policy narrowed to an app's list. @throws what EgressPolicy.narrowedTo throws on a bad list. */
  policyFor(egressAllow: readonly string[] | null): EgressPolicy {
    return this.policy.narrowedTo(egressAllow);
  }

  /** Sends `req`; every failure is a result, except while `dropping()` (shutdown), when it is thrown. */
  async post(req: CallbackRequest, dropping: () => boolean): Promise<TryResult> {
    const parent = instanceTrace(req.instance);
    const context = childContext(parent);
    const startMs = this.clock.now();
    const headers = { ...req.headers, traceparent: formatTraceparent(context) };
    const result = await this.send(req, headers, dropping);
    this.traced(req, parent, context, startMs, result);
    return result;
  }

  private async send(
    req: CallbackRequest,
    headers: Record<string, string>,
    dropping: () => boolean,
  ): Promise<TryResult> {
    try {
      const { response } = await egressHttp(
        { url: req.url.href, method: 'POST', headers, body: req.body, signal: req.signal },
        {
          policy: req.policy,
          resolver: this.resolver,
          followRedirects: false,
          connectTimeoutMs: this.settings.connectTimeoutMs,
          headTimeoutMs: this.settings.readTimeoutMs,
        },
      );
      response.destroy();
      const ra = response.headers['retry-after'];
      return { kind: 'answer', status: response.statusCode ?? 0, retryAfter: typeof ra === 'string' ? ra : undefined };
    } catch (err) {
      if (dropping()) throw err;
      if (err instanceof EgressRefusedError) return { kind: 'refused', message: err.message };
      const code = (err as { code?: string }).code;
      return { kind: 'error', message: `${code ? `${code}: ` : ''}${(err as Error).message}` };
    }
  }

  /** The try's span (status: its answer; error: a refusal, a network error or a 4xx/5xx) and its debug line. */
  private traced(req: CallbackRequest, parent: TraceContext, context: TraceContext, startMs: number, r: TryResult) {
    const ok = r.kind === 'answer' && r.status >= 200 && r.status < 300;
    const error = ok ? null : r.kind === 'answer' ? `HTTP ${r.status}` : r.message;
    const span = { context, parentSpanId: parent.spanId, startMs, endMs: this.clock.now() };
    const attributes = {
      'tickwheel.delivery_id': req.deliveryId,
      'http.response.status_code': r.kind === 'answer' ? r.status : undefined,
    };
    this.tracing.record(rowSpan('tickwheel.callback', req.instance, span, { kind: 'client', error, attributes }));
    const what = error ?? `HTTP ${r.kind === 'answer' ? r.status : ''}`;
    this.logger.debug({
      traceId: context.traceId,
      msg: `callback ${req.deliveryId} of instance ${req.instance.id}: ${what}`,
    });
  }
}
