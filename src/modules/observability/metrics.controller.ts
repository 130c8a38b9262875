import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { PrometheusController } from '@willsoto/nestjs-prometheus';
import type { Response } from 'express';
import { MetricsService } from './metrics.service.js';

/** The media type of the text exposition format, as prom-client's registry names it. */
const EXPOSITION = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * Prometheus scrape endpoint, `/metrics` (unauthenticated, like every exporter; keep it off the public ingress),
 * mounted by nestjs-prometheus's module. Serves this app's own registry, not prom-client's global one.
 */
@ApiTags('metrics')
@Controller()
export class MetricsController extends PrometheusController {
  constructor(private readonly metrics: MetricsService) {
    super();
  }

  /** The registry in the text exposition format, `text/plain; version=0.0.4; charset=utf-8`. */
  @Get()
  @ApiOperation({
    summary: 'Prometheus metrics (text exposition format 0.0.4; unsigned: keep it off the public ingress)',
    description:
      'The tickwheel_* series of docs/observability.md "Metrics" and the process metrics, one sample per line.',
  })
  @ApiProduces(EXPOSITION)
  @ApiOkResponse({
    description: 'Every metric of this process: # HELP and # TYPE lines, then its samples.',
    content: {
      [EXPOSITION]: {
        schema: { type: 'string', example: '# TYPE tickwheel_wheel_size gauge\ntickwheel_wheel_size 3' },
      },
    },
  })
  override async index(@Res({ passthrough: true }) response: Response): Promise<string> {
    response.header('Content-Type', this.metrics.registry.contentType);
    return this.metrics.registry.metrics();
  }
}
