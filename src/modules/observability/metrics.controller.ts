import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { PrometheusController } from '@willsoto/nestjs-prometheus';
import type { Response } from 'express';
import { MetricsService } from './metrics.service.js';

/**
 * Prometheus scrape endpoint, `/metrics` (unauthenticated, like every exporter; keep it off the public ingress),
 * mounted by nestjs-prometheus's module. Serves this app's own registry, not prom-client's global one.
 */
@ApiExcludeController()
@Controller()
export class MetricsController extends PrometheusController {
  constructor(private readonly metrics: MetricsService) {
    super();
  }

  /** The registry in the text exposition format, `text/plain; version=0.0.4; charset=utf-8`. */
  @Get()
  override async index(@Res({ passthrough: true }) response: Response): Promise<string> {
    response.header('Content-Type', this.metrics.registry.contentType);
    return this.metrics.registry.metrics();
  }
}
