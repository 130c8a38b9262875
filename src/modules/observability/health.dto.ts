import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** GET /health/live answer. */
export class LiveDto {
  @ApiProperty({ description: "Always 'ok': the process answers HTTP.", example: 'ok' }) status: string;
}

/** GET /health/ready answer (@nestjs/terminus' health check result), 200 and 503 alike. */
export class ReadyDto {
  @ApiProperty({ enum: ['ok', 'error'], description: "'ok' when every dependency answered, else 'error' (503)." })
  status: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: "The dependencies that answered, by name (database, redis): {status: 'up', ...}.",
    example: { database: { status: 'up' }, redis: { status: 'up', mode: 'in-process' } },
  })
  info?: Record<string, unknown>;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: "The dependencies that did not answer (the database within 2000 ms), by name: {status: 'down'}.",
  })
  error?: Record<string, unknown>;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Every dependency by name, up or down.' })
  details: Record<string, unknown>;
}
