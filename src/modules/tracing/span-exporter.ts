import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOnSampler,
  BatchSpanProcessor,
  type IdGenerator,
  RandomIdGenerator,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { type TraceContext } from '../../common/index.js';

/** How long shutdown waits for the last batch to be exported (ms): an unreachable collector never holds a stop. */
const SHUTDOWN_FLUSH_MS = 5_000;

/** A span recorded once its work ended; times epoch ms UTC. `error` set: the span's status is ERROR. */
export interface EndedSpan {
  name: string;
  /** This span's own trace id and span id (the ids Tickwheel already sent on, so the export matches them). */
  context: TraceContext;
  /** The span it is a child of, in the same trace; null: a root span. */
  parentSpanId: string | null;
  kind?: 'server' | 'client' | 'internal' | 'consumer';
  startMs: number;
  endMs: number;
  attributes?: Record<string, string | number | boolean | undefined>;
  error?: string | null;
}

const KINDS = {
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  internal: SpanKind.INTERNAL,
  consumer: SpanKind.CONSUMER,
};

/** Hands the tracer the ids of the span being started (startSpan is synchronous), else random ones. */
class GivenIds implements IdGenerator {
  next: TraceContext | null = null;
  private readonly random = new RandomIdGenerator();

  generateTraceId(): string {
    return this.next?.traceId ?? this.random.generateTraceId();
  }

  generateSpanId(): string {
    return this.next?.spanId ?? this.random.generateSpanId();
  }
}

/**
 * OpenTelemetry export of ended spans over OTLP/HTTP JSON, batched (BatchSpanProcessor: every 5 s or 512 spans, at
 * most 2048 queued, later ones dropped). A failed export is dropped by the processor: it never reaches the work.
 */
export class SpanExporter {
  private readonly ids = new GivenIds();
  private readonly provider: TracerProvider;
  private readonly tracer: Tracer;

  constructor(tracesUrl: string, serviceName: string) {
    this.provider = new TracerProvider({
      resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName }),
      idGenerator: this.ids,
      sampler: new AlwaysOnSampler(),
      spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: tracesUrl }) })],
    });
    this.tracer = this.provider.getTracer('tickwheel');
  }

  /** Queues `s` for export. */
  record(s: EndedSpan): void {
    const { traceId, spanId, flags } = s.context;
    const parent = s.parentSpanId
      ? trace.setSpanContext(ROOT_CONTEXT, {
          traceId,
          spanId: s.parentSpanId,
          traceFlags: parseInt(flags, 16) & TraceFlags.SAMPLED,
          isRemote: true,
        })
      : ROOT_CONTEXT;
    this.ids.next = s.context;
    const kind = KINDS[s.kind ?? 'internal'];
    let span;
    try {
      span = this.tracer.startSpan(s.name, { kind, startTime: s.startMs, attributes: s.attributes }, parent);
    } finally {
      this.ids.next = null;
    }
    if (spanId !== span.spanContext().spanId) return;
    span.setStatus(
      s.error ? { code: SpanStatusCode.ERROR, message: s.error.slice(0, 1000) } : { code: SpanStatusCode.OK },
    );
    span.end(Math.max(s.startMs, s.endMs));
  }

  /** Exports what is queued and stops, within SHUTDOWN_FLUSH_MS. */
  async shutdown(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.provider.shutdown().catch(() => undefined),
      new Promise<void>((r) => (timer = setTimeout(r, SHUTDOWN_FLUSH_MS))),
    ]);
    clearTimeout(timer);
  }
}
