import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsISO8601, IsInt, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { BackoffKind, MisfirePolicy, OverlapPolicy, RoutingStrategy, TriggerType } from '../../metadata/index.js';

/** Trigger types a job definition may have (API tasks are submitted through /api/tasks). */
const JOB_TRIGGER_TYPES = [TriggerType.CRON, TriggerType.FIXED_RATE, TriggerType.FIXED_DELAY, TriggerType.ONE_SHOT];
export const SUPPORTED_ROUTING = Object.values(RoutingStrategy);
/** Most shards one fire of a SHARDING_BROADCAST job may have. */
export const MAX_SHARDS = 1000;
export const SUPPORTED_OVERLAP = Object.values(OverlapPolicy);

/** POST /api/jobs body. */
export class CreateJobDto {
  @ApiProperty({ description: 'Unique code of the job in its namespace (1-128 of A-Z a-z 0-9 _ . -).', example: 'health-probe' })
  @IsString() @Matches(/^[A-Za-z0-9_.-]{1,128}$/, { message: 'code must be 1-128 of [A-Za-z0-9_.-]' })
  code: string;

  @ApiPropertyOptional({ maxLength: 255 }) @IsOptional() @IsString() @MaxLength(255)
  description?: string;

  @ApiProperty({ description: "Handler name ('http', 'shell' when enabled, or your own @JobHandler).", example: 'http' })
  @IsString() @Matches(/^[A-Za-z0-9_.:-]{1,128}$/, { message: 'handler must be 1-128 of [A-Za-z0-9_.:-]' })
  handler: string;

  @ApiProperty({
    enum: JOB_TRIGGER_TYPES,
    description: 'CRON: triggerExpr is 5 fields (min hour dom mon dow) or 6 (leading seconds), in timeZone. ' +
      'FIXED_RATE: period in ms; fires stay on the grid of the first fire. FIXED_DELAY: delay in ms counted from the previous finish. ' +
      'ONE_SHOT: an ISO-8601 instant with Z or an offset.',
  })
  @IsIn(JOB_TRIGGER_TYPES, { message: `triggerType must be one of ${JOB_TRIGGER_TYPES.join(', ')}` })
  triggerType: TriggerType;

  @ApiProperty({ description: 'Cron expression, period/delay in ms, or instant (see triggerType).', example: '*/10 * * * * *' })
  @IsString() @MaxLength(255)
  triggerExpr: string;

  @ApiPropertyOptional({ description: 'IANA time zone the cron expression is read in (default UTC). The host TZ never matters.', example: 'Europe/London' })
  @IsOptional() @IsString() @MaxLength(64)
  timeZone?: string;

  @ApiPropertyOptional({ description: 'Handler parameters (JSON object), given to every fire.', example: { method: 'GET', url: 'http://127.0.0.1:3000/health/live' } })
  @IsOptional() @IsObject()
  params?: Record<string, unknown>;

  @ApiPropertyOptional({
    enum: SUPPORTED_ROUTING,
    description: 'How an executor is picked among the live nodes that advertise the handler: ROUND_ROBIN (default); RANDOM; ' +
      'LEAST_ACTIVE (lowest running/capacity from the last heartbeats); CONSISTENT_HASH (a ring of virtual nodes keyed by routingKey: ' +
      'the same key goes to the same node while the node set holds, and adding or removing one of N nodes moves about 1/N of the keys); ' +
      'FAILOVER (the first live node in node-id order); SHARDING_BROADCAST (each fire becomes shardTotal instances, shard i placed on the ring by <jobId>:<i>).',
  })
  @IsOptional() @IsIn(SUPPORTED_ROUTING, { message: `routingStrategy must be one of ${SUPPORTED_ROUTING.join(', ')}` })
  routingStrategy?: RoutingStrategy;

  @ApiPropertyOptional({ maxLength: 255, description: 'CONSISTENT_HASH: the name of a params field whose value is the routing key (so a trigger-now with other params can route elsewhere). Without it, or when the field is missing, the instance id is hashed.', example: 'tenant' })
  @IsOptional() @IsString() @MaxLength(255)
  routingKey?: string;

  @ApiPropertyOptional({ description: `SHARDING_BROADCAST: instances per fire, 1-${MAX_SHARDS} (default 1). The handler sees shardIndex (0-based) and shardTotal; each shard of a fire runs once whatever the node count.`, example: 3 })
  @IsOptional() @IsInt() @Min(1) @Max(MAX_SHARDS)
  shardTotal?: number;

  @ApiPropertyOptional({ description: 'SHARDING_BROADCAST: one JSON object per shard (exactly shardTotal), merged over params for that shard.', example: [{ region: 'eu' }, { region: 'us' }, { region: 'ap' }] })
  @IsOptional() @IsArray() @ArrayMaxSize(MAX_SHARDS) @IsObject({ each: true })
  shardParams?: Array<Record<string, unknown>>;

  @ApiPropertyOptional({ enum: MisfirePolicy, description: 'Fires missed while no scheduler led (or lagging past MISFIRE_THRESHOLD_MS), recorded with triggerSource MISFIRE: FIRE_ONCE_NOW (default) runs once, for the latest missed time; SKIP runs none and records each as a CANCELLED MISFIRE_SKIP row; FIRE_ALL runs every missed time, oldest first, at most 100 per job.' })
  @IsOptional() @IsIn(Object.values(MisfirePolicy))
  misfirePolicy?: MisfirePolicy;

  @ApiPropertyOptional({ enum: SUPPORTED_OVERLAP, description: 'A fire while an earlier fire of the job is unfinished: ALLOW (default) runs both; SKIP records the new fire as CANCELLED (OVERLAP_SKIP); QUEUE keeps it WAITING and runs fires one at a time in order; REPLACE cancels the unfinished ones (a running handler sees its signal abort at once) and runs the new one.' })
  @IsOptional() @IsIn(SUPPORTED_OVERLAP, { message: `overlapPolicy must be one of ${SUPPORTED_OVERLAP.join(', ')} in this release` })
  overlapPolicy?: OverlapPolicy;

  @ApiPropertyOptional({ description: 'Most instances of this job dispatched or running at once across the cluster (0 = no limit, the default). Over it an instance waits as WAITING and is released, oldest first, when one ends: never dropped. With overlapPolicy QUEUE it must be 0 or 1.', example: 2 })
  @IsOptional() @IsInt() @Min(0) @Max(10_000)
  maxConcurrency?: number;

  @ApiPropertyOptional({ description: 'Time limit of one attempt, ms (default 60000).', example: 60000 })
  @IsOptional() @IsInt() @Min(1) @Max(24 * 3600 * 1000)
  timeoutMs?: number;

  @ApiPropertyOptional({ description: 'Retries after the first attempt (0-19, default 0).' })
  @IsOptional() @IsInt() @Min(0) @Max(19)
  retryMax?: number;

  @ApiPropertyOptional({ description: 'Base delay between attempts, ms (default 1000).' })
  @IsOptional() @IsInt() @Min(0) @Max(3600 * 1000)
  retryBackoffMs?: number;

  @ApiPropertyOptional({ enum: BackoffKind }) @IsOptional() @IsIn(Object.values(BackoffKind))
  retryBackoffKind?: BackoffKind;

  @ApiPropertyOptional({ description: 'Whether the schedule runs (default true). Pause/resume change it.' })
  @IsOptional() @IsBoolean()
  enabled?: boolean;
}

/** PATCH /api/jobs/{id} body: any subset of the create fields. */
export class UpdateJobDto extends PartialType(CreateJobDto) {}

/** POST /api/jobs/{id}/trigger body. */
export class TriggerJobDto {
  @ApiPropertyOptional({ description: "Parameters for this run only (default: the job's)." })
  @IsOptional() @IsObject()
  params?: Record<string, unknown>;
}

/** POST /api/jobs/{id}/backfill body. */
export class BackfillDto {
  @ApiProperty({ description: 'Start of the range, ISO-8601 with Z or an offset (inclusive).', example: '2026-11-29T00:00:00Z' })
  @IsISO8601({ strict: true }, { message: 'from must be an ISO-8601 instant' }) @Matches(/(Z|[+-]\d{2}:\d{2})$/, { message: 'from needs Z or an offset' })
  from: string;

  @ApiProperty({ description: 'End of the range (inclusive); at most 1000 fires in all.', example: '2026-11-29T06:00:00Z' })
  @IsISO8601({ strict: true }, { message: 'to must be an ISO-8601 instant' }) @Matches(/(Z|[+-]\d{2}:\d{2})$/, { message: 'to needs Z or an offset' })
  to: string;
}

/** POST /api/jobs/import-crontab body. */
export class ImportCrontabDto {
  @ApiProperty({ description: 'File name, used in the job codes (<name>-L<line>).', example: 'sysstat' })
  @IsString() @Matches(/^[A-Za-z0-9_.-]{1,64}$/, { message: 'fileName must be 1-64 of [A-Za-z0-9_.-]' })
  fileName: string;

  @ApiProperty({ description: 'The cron.d file content (m h dom mon dow user command).' })
  @IsString() @MaxLength(1_000_000)
  content: string;

  @ApiPropertyOptional({ description: 'Zone the entries are read in (default UTC).' }) @IsOptional() @IsString() @MaxLength(64)
  timeZone?: string;

  @ApiPropertyOptional({ description: 'Create the jobs enabled (default false: review, then resume).' }) @IsOptional() @IsBoolean()
  enable?: boolean;
}

/** Query of GET /api/jobs. */
export class ListQueryDto {
  @ApiPropertyOptional({ default: 0 }) @IsOptional() @Type(() => Number) @IsInt() @Min(0) offset?: number;
  @ApiPropertyOptional({ default: 50, maximum: 500 }) @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(500) limit?: number;
}
