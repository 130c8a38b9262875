import { Global, Module } from '@nestjs/common';
import { MetricsService } from './metrics.service.js';

/** Metrics are global: every module reads them, observability reads nothing (DESIGN §2). */
@Global()
@Module({ providers: [MetricsService], exports: [MetricsService] })
export class ObservabilityModule {}
