import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { BackoffKind } from '../../metadata/index.js';

/** POST /api/tasks body. */
export class SubmitTaskDto {
  @ApiPropertyOptional({ description: 'Idempotency key chosen by the caller (1-128 of A-Z a-z 0-9 _ . : -). The same id with the same body returns the first answer; with another body it is a 409. Generated when absent.', example: 'order-42-sync' })
  @IsOptional() @IsString() @Matches(/^[A-Za-z0-9_.:-]{1,128}$/, { message: 'requestId must be 1-128 of [A-Za-z0-9_.:-]' })
  requestId?: string;

  @ApiProperty({ description: "Name of the handler that runs the task (built in: 'http', and 'shell' when enabled).", example: 'http' })
  @IsString() @Matches(/^[A-Za-z0-9_.:-]{1,128}$/, { message: 'handler must be 1-128 of [A-Za-z0-9_.:-]' })
  handler: string;

  @ApiPropertyOptional({ description: "Handler parameters (JSON object). For 'http': method, url, headers, body, timeoutMs.", example: { method: 'GET', url: 'http://127.0.0.1:3000/health/live' } })
  @IsOptional() @IsObject()
  params?: Record<string, unknown>;

  @ApiPropertyOptional({ description: 'Run no earlier than this many milliseconds from now (0 - 31 days).', example: 0 })
  @IsOptional() @IsInt() @Min(0) @Max(31 * 24 * 3600 * 1000)
  delayMs?: number;

  @ApiPropertyOptional({ description: 'Time limit of one attempt, ms (default 60000, max 24 h). On expiry the signal aborts and the attempt is TIMEOUT.', example: 60000 })
  @IsOptional() @IsInt() @Min(1) @Max(24 * 3600 * 1000)
  timeoutMs?: number;

  @ApiPropertyOptional({ description: 'Attempts in all, first included (1-20, default 1).', example: 3 })
  @IsOptional() @IsInt() @Min(1) @Max(20)
  maxAttempts?: number;

  @ApiPropertyOptional({ description: 'Base delay between attempts, ms (default 1000).', example: 1000 })
  @IsOptional() @IsInt() @Min(0) @Max(3600 * 1000)
  retryBackoffMs?: number;

  @ApiPropertyOptional({ enum: BackoffKind, description: 'FIXED (default) or EXPONENTIAL (doubling, with jitter).' })
  @IsOptional() @IsIn(Object.values(BackoffKind))
  retryBackoffKind?: BackoffKind;

  @ApiPropertyOptional({ description: 'Routing key (kept for key-based routing strategies).', maxLength: 255 })
  @IsOptional() @IsString() @MaxLength(255)
  routingKey?: string;
}

/** 202 answer of POST /api/tasks. */
export class TaskAcceptedDto {
  @ApiProperty() requestId: string;
  @ApiProperty({ example: 'PENDING' }) status: string;
  @ApiProperty({ description: 'Milliseconds until the task becomes due (its delay).' }) estimatedDelay: number;
}

/** GET /api/tasks/{requestId} answer. Times are ISO-8601 UTC. */
export class TaskViewDto {
  @ApiProperty() requestId: string;
  @ApiProperty() instanceId: string;
  @ApiProperty() handler: string;
  @ApiProperty({ enum: ['PENDING', 'WAITING', 'DISPATCHED', 'RUNNING', 'SUCCESS', 'FAILED', 'TIMEOUT', 'CANCELLED'] }) status: string;
  @ApiProperty() attempt: number;
  @ApiProperty() maxAttempts: number;
  @ApiProperty({ nullable: true, type: String }) nodeId: string | null;
  @ApiProperty({ nullable: true, type: String }) jobCode: string | null;
  @ApiProperty() triggerSource: string;
  @ApiProperty({ nullable: true, description: 'What the handler returned (bounded).' }) result: unknown;
  @ApiProperty({ nullable: true, type: String }) error: string | null;
  @ApiProperty() traceId: string;
  @ApiProperty() fireTime: string;
  @ApiProperty() dueAt: string;
  @ApiProperty() createdAt: string;
  @ApiProperty({ nullable: true, type: String }) dispatchedAt: string | null;
  @ApiProperty({ nullable: true, type: String }) startedAt: string | null;
  @ApiProperty({ nullable: true, type: String }) finishedAt: string | null;
}
