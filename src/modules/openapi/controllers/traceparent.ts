import { createParamDecorator, type ExecutionContext, Logger } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { type Request } from 'express';
import { instanceTrace, parseTraceparent, type TraceContext } from '../../../common/index.js';
import { type JobInstance } from '../../metadata/index.js';
import { rowSpan, type Tracing } from '../../tracing/index.js';

/**
 * The caller's trace context from its `traceparent` header; null when absent or malformed (W3C: a receiver that
 * cannot parse it starts a new trace, so a bad header is no 400).
 */
export const TraceParent = createParamDecorator((_data: unknown, ctx: ExecutionContext): TraceContext | null =>
  parseTraceparent(ctx.switchToHttp().getRequest<Request>().headers.traceparent),
);

/** The Swagger entry of the header on the routes that start work. */
export const TRACEPARENT_HEADER = ApiHeader({
  name: 'traceparent',
  required: false,
  description:
    'W3C trace context (`00-<32 hex trace-id>-<16 hex parent-id>-<2 hex flags>`, lower-case, ids not all zero): the ' +
    "work joins the caller's trace, as a child span of parent-id. Absent or malformed (checked strictly): a new " +
    'trace is started, no error. The instance view shows the `traceparent` it runs under (docs/observability.md ' +
    '"Tracing").',
});

const logger = new Logger('Submit');

/**
 * Records the api's span of each row a request created (its stored context, under the caller's `parent` span)
 * and logs the row at debug level with its trace id. `startMs`: when the request's work began (epoch ms, wall clock).
 */
export function submitted(
  tracing: Tracing,
  rows: Array<JobInstance | null>,
  parent: TraceContext | null,
  startMs: number,
): void {
  const endMs = Date.now();
  for (const row of rows) {
    if (!row) continue;
    const span = { context: instanceTrace(row), parentSpanId: parent?.spanId ?? null, startMs, endMs };
    tracing.record(rowSpan('tickwheel.submit', row, span, { kind: 'server' }));
    logger.debug({ traceId: row.traceId, msg: `instance ${row.id} (${row.requestId}) created` });
  }
}
