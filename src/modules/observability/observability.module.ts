import { Global, Module } from '@nestjs/common';
import { PrometheusModule } from '@willsoto/nestjs-prometheus';
import { HttpMetrics } from './http-metrics.js';
import { MetricsController } from './metrics.controller.js';
import { MetricsService } from './metrics.service.js';

/**
 * Metrics are global: every module reads them, observability reads nothing (docs/architecture.md). `/metrics` is
 * nestjs-prometheus's route with {@link MetricsController}; its default metrics (global registry) stay off.
 * {@link HttpMetrics} is the api role's request middleware (bootstrap mounts it).
 */
@Global()
@Module({
  imports: [
    PrometheusModule.register({ controller: MetricsController, path: '/metrics', defaultMetrics: { enabled: false } }),
  ],
  providers: [MetricsService, HttpMetrics],
  exports: [MetricsService, HttpMetrics],
})
export class ObservabilityModule {}
