import { DynamicModule, Global, Module } from '@nestjs/common';
import { PrometheusModule } from '@willsoto/nestjs-prometheus';
import type { AppConfig } from '../../config/index.js';
import { HttpMetrics } from './http-metrics.js';
import { MetricsListener } from './metrics-listener.js';
import { MetricsController } from './metrics.controller.js';
import { MetricsService } from './metrics.service.js';

/**
 * Metrics are global: every module reads them, observability reads only its settings (docs/architecture.md).
 * `/metrics` is nestjs-prometheus's route with {@link MetricsController} on the http listener, or, with
 * METRICS_PORT, {@link MetricsListener}'s own listener and no route on the http one; nestjs-prometheus's default
 * metrics (global registry) stay off. {@link HttpMetrics} is the api role's request middleware (bootstrap mounts it).
 */
@Global()
@Module({
  providers: [MetricsService, HttpMetrics, MetricsListener],
  exports: [MetricsService, HttpMetrics, MetricsListener],
})
export class ObservabilityModule {
  /** The module for `config`: the /metrics route on the http listener only when METRICS_PORT is unset. */
  static forConfig(config: AppConfig): DynamicModule {
    const route = PrometheusModule.register({
      controller: MetricsController,
      path: '/metrics',
      defaultMetrics: { enabled: false },
    });
    return { module: ObservabilityModule, imports: config.metrics.port === null ? [route] : [] };
  }
}
