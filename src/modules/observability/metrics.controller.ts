import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { PrometheusController } from '@willsoto/nestjs-prometheus';
import type { Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { METRICS_CHALLENGE, scrapeAllowed } from './metrics-access.js';
import { MetricsService } from './metrics.service.js';

/** The media type of the text exposition format, as prom-client's registry names it. */
const EXPOSITION = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * Prometheus scrape endpoint, `/metrics` (unsigned, like every exporter; keep it off the public ingress, or move it
 * to its own listener with METRICS_PORT), mounted by nestjs-prometheus's module only when METRICS_PORT is unset.
 * Serves this app's own registry, not prom-client's global one; with METRICS_TOKEN a scrape sends it as a bearer.
 */
@ApiTags('metrics')
@Controller()
export class MetricsController extends PrometheusController {
  constructor(
    private readonly metrics: MetricsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
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
  @ApiUnauthorizedResponse({
    description: 'METRICS_TOKEN is set and the request has no `Authorization: Bearer` of it',
    content: { 'text/plain': { schema: { type: 'string' } } },
  })
  override async index(@Res({ passthrough: true }) response: Response, @Req() request?: Request): Promise<string> {
    if (!scrapeAllowed(this.config.metrics.token, request?.headers.authorization)) {
      response.status(401).header('WWW-Authenticate', METRICS_CHALLENGE).header('Content-Type', 'text/plain');
      return 'Unauthorized: send Authorization: Bearer <METRICS_TOKEN>\n';
    }
    response.header('Content-Type', this.metrics.registry.contentType);
    return this.metrics.registry.metrics();
  }
}
