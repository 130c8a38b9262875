import { Controller, Get, Inject, Optional } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { LiveDto, ReadyDto } from './health.dto.js';
import type { Cluster, Redis } from 'ioredis';
import { REDIS_TOKEN } from './observability.tokens.js';

/**
 * `/health/live` (the process answers) and `/health/ready` (database and, when clustered, Redis answer).
 * Unauthenticated so probes need no credentials.
 */
@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    @Optional() @Inject(REDIS_TOKEN) private readonly redis: Redis | Cluster | null,
  ) {}

  @Get('live')
  @ApiOperation({ summary: 'Liveness: the process answers (no dependency is checked; unsigned)' })
  @ApiOkResponse({ type: LiveDto })
  live(): LiveDto {
    return { status: 'ok' };
  }

  @Get('ready')
  // Documented below: terminus' own Swagger docs depend on how it was loaded.
  @HealthCheck({ noCache: true, swaggerDocumentation: false })
  @ApiOperation({ summary: 'Readiness: the database and, clustered, Redis answer (unsigned)' })
  @ApiOkResponse({ type: ReadyDto, description: 'Database and Redis answer: status ok.' })
  @ApiServiceUnavailableResponse({
    type: ReadyDto,
    description: 'A dependency is down: status error (not problem+json).',
  })
  ready() {
    return this.health.check([
      () => this.db.pingCheck('database', { timeout: 2000 }),
      async () => {
        const ind = this.indicators.check('redis');
        if (!this.redis) return ind.up({ mode: 'in-process' });
        try {
          await this.redis.ping();
          return ind.up();
        } catch (err) {
          return ind.down({ message: (err as Error).message });
        }
      },
    ]);
  }
}
