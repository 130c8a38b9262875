import { type TraceContext } from '../../common/index.js';
import { type EndedSpan } from './span-exporter.js';

/** What a span names of the instance it is about (a JobInstance fits). */
export interface TracedRow {
  id: string;
  requestId: string;
  appId: string;
  handler: string;
  jobCode: string | null;
}

/**
 * A span about one instance: `context` its own ids (in the instance's trace), `parentSpanId` the span it hangs
 * under; the instance's ids as `tickwheel.*` attributes beside `extra`.
 */
export function rowSpan(
  name: string,
  row: TracedRow,
  span: { context: TraceContext; parentSpanId: string | null; startMs: number; endMs: number },
  extra: Pick<EndedSpan, 'kind' | 'error' | 'attributes'> = {},
): EndedSpan {
  return {
    name,
    ...span,
    kind: extra.kind,
    error: extra.error,
    attributes: {
      'tickwheel.instance_id': row.id,
      'tickwheel.request_id': row.requestId,
      'tickwheel.app_id': row.appId,
      'tickwheel.handler': row.handler,
      'tickwheel.job_code': row.jobCode ?? undefined,
      ...extra.attributes,
    },
  };
}
