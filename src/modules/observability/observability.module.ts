import { Global, Module } from '@nestjs/common';
import { PrometheusModule } from '@willsoto/nestjs-prometheus';
import { MetricsController } from './metrics.controller.js';
import { MetricsService } from './metrics.service.js';

/**
 * Metrics are global: every module reads them, observability reads nothing (docs/architecture.md). `/metrics` is
 * nestjs-prometheus's route with {@link MetricsController}; its default metrics (global registry) stay off.
 */
@Global()
@Module({
  imports: [
    PrometheusModule.register({ controller: MetricsController, path: '/metrics', defaultMetrics: { enabled: false } }),
  ],
  providers: [MetricsService],
  exports: [MetricsService],
})
export class ObservabilityModule {}
