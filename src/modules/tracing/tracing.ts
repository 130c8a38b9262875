import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { type EndedSpan, SpanExporter } from './span-exporter.js';

/**
 * Optional span export (docs/observability.md "Tracing"): on when OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT is set,
 * otherwise {@link record} does nothing. Spans are recorded when their work has ended, with the ids Tickwheel put in
 * the `traceparent` it stored and sent, so an exported trace and the headers agree. Never throws into the work.
 */
@Injectable()
export class Tracing implements OnApplicationShutdown {
  private readonly logger = new Logger(Tracing.name);
  private readonly exporter: SpanExporter | null;
  private failed = false;

  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'tracing'>) {
    const { tracesUrl, serviceName } = config.tracing;
    this.exporter = tracesUrl ? new SpanExporter(tracesUrl, serviceName) : null;
  }

  /** Export is on. */
  get enabled(): boolean {
    return this.exporter !== null;
  }

  /** Queues an ended span for export (off: nothing). */
  record(span: EndedSpan): void {
    if (!this.exporter) return;
    try {
      this.exporter.record(span);
    } catch (err) {
      if (!this.failed) this.logger.warn(`span ${span.name} not recorded: ${(err as Error).message}`);
      this.failed = true;
    }
  }

  /** Flushes the queued spans (bounded wait). */
  async onApplicationShutdown(): Promise<void> {
    await this.exporter?.shutdown();
  }
}
