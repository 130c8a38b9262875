import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsISO8601,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import {
  MAX_BACKFILL_FIRES,
  MAX_BACKFILL_INSTANCES,
  MAX_CALLBACK_URL_CHARS,
  MAX_CODE_CHARS,
  MAX_CRONTAB_CHARS,
  MAX_IMPORT_ENTRIES,
  MAX_IMPORT_REJECTED_LISTED,
  MAX_LIST_LIMIT,
  MAX_LIST_OFFSET,
  MAX_PARAMS_BYTES,
  MAX_SHARD_PARAMS_BYTES,
  MAX_SHARDS,
  MAX_TEXT_CHARS,
  MAX_ZONE_CHARS,
  MAX_FILE_NAME_CHARS,
} from '../../../common/index.js';
import { BackoffKind, MisfirePolicy, OverlapPolicy, RoutingStrategy, TriggerType } from '../../metadata/index.js';
import { CALLBACK_URL_DESCRIPTION } from './callback.dto.js';
import { CODE_PATTERN, HEARTBEAT_TIMEOUT_DESCRIPTION, MaxJsonBytes, NAME_PATTERN } from './validators.js';

const FILE_NAME_PATTERN = new RegExp(`^[A-Za-z0-9_.-]{1,${MAX_FILE_NAME_CHARS}}$`);

/** Trigger types a job definition may have (API tasks are submitted through /api/tasks). */
const JOB_TRIGGER_TYPES = [TriggerType.CRON, TriggerType.FIXED_RATE, TriggerType.FIXED_DELAY, TriggerType.ONE_SHOT];
export const SUPPORTED_ROUTING = Object.values(RoutingStrategy);
export const SUPPORTED_OVERLAP = Object.values(OverlapPolicy);

/** POST /api/jobs body. */
export class CreateJobDto {
  @ApiProperty({
    description: `Code of the job, unique per app in its namespace (1-${MAX_CODE_CHARS} of A-Z a-z 0-9 _ . -).`,
    example: 'health-probe',
    maxLength: MAX_CODE_CHARS,
  })
  @IsString()
  @Matches(CODE_PATTERN, { message: `code must be 1-${MAX_CODE_CHARS} of [A-Za-z0-9_.-]` })
  code: string;

  @ApiPropertyOptional({ description: `Free text, at most ${MAX_TEXT_CHARS} characters.`, maxLength: MAX_TEXT_CHARS })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_TEXT_CHARS)
  description?: string;

  @ApiProperty({
    description:
      `Handler name ('noop', 'http', 'shell' when enabled, or your own @JobHandler; 1-${MAX_CODE_CHARS} of A-Z a-z ` +
      `0-9 _ . : -).`,
    example: 'http',
    maxLength: MAX_CODE_CHARS,
  })
  @IsString()
  @Matches(NAME_PATTERN, { message: `handler must be 1-${MAX_CODE_CHARS} of [A-Za-z0-9_.:-]` })
  handler: string;

  @ApiProperty({
    enum: JOB_TRIGGER_TYPES,
    description:
      'CRON: triggerExpr is 5 fields (min hour dom mon dow) or 6 (leading seconds), in timeZone. ' +
      'FIXED_RATE: period in ms (1 s to 365 days); fires stay on the grid of the first fire. FIXED_DELAY: delay in ' +
      'ms (1 s to 365 days) counted from the previous finish. ' +
      'ONE_SHOT: an ISO-8601 instant with Z or an offset.',
  })
  @IsIn(JOB_TRIGGER_TYPES, { message: `triggerType must be one of ${JOB_TRIGGER_TYPES.join(', ')}` })
  triggerType: TriggerType;

  @ApiProperty({
    description:
      `Cron expression, period/delay in ms, or instant (see triggerType), at most ${MAX_TEXT_CHARS} characters. One ` +
      `job may make at most JOB_MAX_INSTANCES_PER_MINUTE instances a minute (default 3000): its peak fires per ` +
      `minute (a cron's values in its seconds field, 1 for 5 fields; 60000 / period for FIXED_RATE and FIXED_DELAY) ` +
      `times shardTotal; beyond, a 400 names shardTotal or triggerExpr.`,
    example: '*/10 * * * * *',
    maxLength: MAX_TEXT_CHARS,
  })
  @IsString()
  @MaxLength(MAX_TEXT_CHARS)
  triggerExpr: string;

  @ApiPropertyOptional({
    description: 'IANA time zone the cron expression is read in (default UTC). The host TZ never matters.',
    example: 'Europe/London',
    maxLength: MAX_ZONE_CHARS,
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_ZONE_CHARS)
  timeZone?: string;

  @ApiPropertyOptional({
    description: `Handler parameters (JSON object, at most ${MAX_PARAMS_BYTES} bytes as JSON), given to every fire.`,
    example: { method: 'GET', url: 'http://reports.internal:8080/health' },
  })
  @IsOptional()
  @IsObject()
  @MaxJsonBytes(MAX_PARAMS_BYTES)
  params?: Record<string, unknown>;

  @ApiPropertyOptional({
    enum: SUPPORTED_ROUTING,
    description:
      'How an executor is picked among the live nodes that advertise the handler: ROUND_ROBIN (default); RANDOM; ' +
      "LEAST_ACTIVE (lowest (queued + running)/capacity, read from the nodes' Redis lists at routing time); " +
      'CONSISTENT_HASH (a ring of virtual nodes keyed by routingKey: ' +
      'the same key goes to the same node while the node set holds, and adding or removing one of N nodes moves ' +
      'about 1/N of the keys); ' +
      'FAILOVER (the first live node in node-id order); SHARDING_BROADCAST (each fire becomes shardTotal ' +
      "instances; shard i goes to position i mod N of the job's rendezvous-hash order of the live nodes).",
  })
  @IsOptional()
  @IsIn(SUPPORTED_ROUTING, { message: `routingStrategy must be one of ${SUPPORTED_ROUTING.join(', ')}` })
  routingStrategy?: RoutingStrategy;

  @ApiPropertyOptional({
    maxLength: MAX_TEXT_CHARS,
    description:
      'CONSISTENT_HASH: the name of a params field whose value is the routing key (so a trigger-now with other ' +
      'params can route elsewhere). Without it, or when the field is missing, the instance id is hashed.',
    example: 'tenant',
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_TEXT_CHARS)
  routingKey?: string;

  @ApiPropertyOptional({
    description:
      `SHARDING_BROADCAST: instances per fire, 1-${MAX_SHARDS} (default 1). The handler sees shardIndex (0-based) ` +
      `and shardTotal; each shard of a fire runs once whatever the node count. Peak fires per minute times ` +
      `shardTotal may not exceed JOB_MAX_INSTANCES_PER_MINUTE (default 3000).`,
    example: 3,
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_SHARDS)
  shardTotal?: number;

  @ApiPropertyOptional({
    description:
      `SHARDING_BROADCAST: one JSON object per shard (exactly shardTotal), merged over params for that shard. At ` +
      `most ${MAX_SHARD_PARAMS_BYTES} bytes as JSON in all, and each shard's params with its entry merged over them ` +
      `at most ${MAX_PARAMS_BYTES} bytes.`,
    example: [{ region: 'eu' }, { region: 'us' }, { region: 'ap' }],
    maxItems: MAX_SHARDS,
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_SHARDS)
  @IsObject({ each: true })
  @MaxJsonBytes(MAX_SHARD_PARAMS_BYTES)
  shardParams?: Array<Record<string, unknown>>;

  @ApiPropertyOptional({
    enum: MisfirePolicy,
    description:
      'Fires missed while no scheduler led (or lagging past MISFIRE_THRESHOLD_MS), recorded with triggerSource ' +
      'MISFIRE: FIRE_ONCE_NOW (default) runs once, for the latest missed time; SKIP runs none and records each as ' +
      'a CANCELLED MISFIRE_SKIP row; FIRE_ALL runs every missed time, oldest first, at most 100 per job.',
  })
  @IsOptional()
  @IsIn(Object.values(MisfirePolicy))
  misfirePolicy?: MisfirePolicy;

  @ApiPropertyOptional({
    enum: SUPPORTED_OVERLAP,
    description:
      'A fire while an earlier fire of the job is unfinished: ALLOW (default) runs both; SKIP records the new fire ' +
      'as CANCELLED (OVERLAP_SKIP); QUEUE keeps it WAITING and runs fires one at a time in order; REPLACE cancels ' +
      'the unfinished ones (a running handler sees its signal abort at once) and runs the new one.',
  })
  @IsOptional()
  @IsIn(SUPPORTED_OVERLAP, { message: `overlapPolicy must be one of ${SUPPORTED_OVERLAP.join(', ')} in this release` })
  overlapPolicy?: OverlapPolicy;

  @ApiPropertyOptional({
    description:
      'Most instances of this job dispatched or running at once across the cluster (0 = no limit, the default). ' +
      'Over it an instance waits as WAITING and is released, oldest first, when one ends: never dropped. With ' +
      'overlapPolicy QUEUE it must be 0 or 1.',
    example: 2,
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10_000)
  maxConcurrency?: number;

  @ApiPropertyOptional({ description: 'Time limit of one attempt, ms (default 60000).', example: 60000 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(24 * 3600 * 1000)
  timeoutMs?: number;

  @ApiPropertyOptional({
    description: HEARTBEAT_TIMEOUT_DESCRIPTION,
    example: 0,
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(24 * 3600 * 1000)
  heartbeatTimeoutMs?: number;

  @ApiPropertyOptional({ description: 'Retries after the first attempt (0-19, default 0).' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(19)
  retryMax?: number;

  @ApiPropertyOptional({ description: 'Base delay between attempts, ms (default 1000).' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(3600 * 1000)
  retryBackoffMs?: number;

  @ApiPropertyOptional({
    enum: BackoffKind,
    description: 'FIXED: every retry waits retryBackoffMs; EXPONENTIAL doubles the wait at each retry.',
  })
  @IsOptional()
  @IsIn(Object.values(BackoffKind))
  retryBackoffKind?: BackoffKind;

  @ApiPropertyOptional({ description: 'Whether the schedule runs (default true). Pause/resume change it.' })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: MAX_CALLBACK_URL_CHARS,
    example: 'https://hooks.example.com/tickwheel',
    description:
      `${CALLBACK_URL_DESCRIPTION} Copied into each instance when it is created (a fire, trigger-now, backfill): a ` +
      `PATCH affects later instances only; PATCH with null clears it.`,
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_CALLBACK_URL_CHARS)
  callbackUrl?: string | null;
}

/** PATCH /api/jobs/{id} body: any subset of the create fields. */
export class UpdateJobDto extends PartialType(CreateJobDto) {}

/** POST /api/jobs/{id}/trigger body. */
export class TriggerJobDto {
  @ApiPropertyOptional({
    description:
      `Parameters for this run only (default: the job's), at most ${MAX_PARAMS_BYTES} bytes as JSON; with each ` +
      `shard's shardParams merged over them, too.`,
  })
  @IsOptional()
  @IsObject()
  @MaxJsonBytes(MAX_PARAMS_BYTES)
  params?: Record<string, unknown>;
}

/** POST /api/jobs/{id}/backfill body. */
export class BackfillDto {
  @ApiProperty({
    description: 'Start of the range, ISO-8601 with Z or an offset (inclusive).',
    example: '2026-11-29T00:00:00Z',
  })
  @IsISO8601({ strict: true }, { message: 'from must be an ISO-8601 instant' })
  @Matches(/(Z|[+-]\d{2}:\d{2})$/, { message: 'from needs Z or an offset' })
  from: string;

  @ApiProperty({
    description:
      `End of the range (inclusive); at most ${MAX_BACKFILL_FIRES} fires and ${MAX_BACKFILL_INSTANCES} instances ` +
      `(fires × shardTotal) in all.`,
    example: '2026-11-29T06:00:00Z',
  })
  @IsISO8601({ strict: true }, { message: 'to must be an ISO-8601 instant' })
  @Matches(/(Z|[+-]\d{2}:\d{2})$/, { message: 'to needs Z or an offset' })
  to: string;
}

/** POST /api/jobs/{id}/backfill answer. */
export class BackfillResultDto {
  @ApiProperty({ description: 'Instances this backfill created (every shard counts).' }) created: number;
  @ApiProperty({ description: 'Scheduled times of the range that had an instance already (left alone).' })
  existing: number;
  @ApiProperty({
    type: [String],
    description: `The range's scheduled times, UTC ISO-8601 (ms), oldest first; at most ${MAX_BACKFILL_FIRES}.`,
  })
  fireTimes: string[];
}

/** POST /api/jobs/import-crontab body. */
export class ImportCrontabDto {
  @ApiProperty({
    description: `File name, used in the job codes (<name>-L<line>), 1-${MAX_FILE_NAME_CHARS} of A-Z a-z 0-9 _ . -.`,
    example: 'sysstat',
    maxLength: MAX_FILE_NAME_CHARS,
  })
  @IsString()
  @Matches(FILE_NAME_PATTERN, { message: `fileName must be 1-${MAX_FILE_NAME_CHARS} of [A-Za-z0-9_.-]` })
  fileName: string;

  @ApiProperty({
    description:
      `The cron.d file content (m h dom mon dow user command), at most ${MAX_CRONTAB_CHARS} characters and ` +
      `${MAX_IMPORT_ENTRIES} entries.`,
    maxLength: MAX_CRONTAB_CHARS,
  })
  @IsString()
  @MaxLength(MAX_CRONTAB_CHARS)
  content: string;

  @ApiPropertyOptional({ description: 'Zone the entries are read in (default UTC).', maxLength: MAX_ZONE_CHARS })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_ZONE_CHARS)
  timeZone?: string;

  @ApiPropertyOptional({ description: 'Create the jobs enabled (default false: review, then resume).' })
  @IsOptional()
  @IsBoolean()
  enable?: boolean;
}

/** Query of a list route (GET /api/jobs, GET /api/jobs/{id}/instances). */
export class ListQueryDto {
  @ApiPropertyOptional({ default: 0, maximum: MAX_LIST_OFFSET, description: `Items to skip, 0-${MAX_LIST_OFFSET}.` })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(MAX_LIST_OFFSET)
  offset?: number;

  @ApiPropertyOptional({ default: 50, maximum: MAX_LIST_LIMIT, description: `Items to return, 1-${MAX_LIST_LIMIT}.` })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_LIST_LIMIT)
  limit?: number;
}

/** A line of an imported file that did not become a job, and why (both cut for the answer). */
export class RejectedLineDto {
  @ApiProperty({ description: 'The line number in the file, from 1.' }) lineNo: number;
  @ApiProperty({ description: 'The line, cut to 200 characters (ending with … when cut).' }) line: string;
  @ApiProperty({ description: 'Why it is not a job, cut to 300 characters.' }) reason: string;
}

/** POST /api/jobs/import-crontab answer. */
export class CrontabImportResultDto {
  @ApiProperty({ type: [String], description: 'Codes of the jobs created.' }) created: string[];
  @ApiProperty({ type: [String], description: 'Codes of the jobs updated (imported before).' }) updated: string[];
  @ApiProperty({
    type: [RejectedLineDto],
    description: `The first ${MAX_IMPORT_REJECTED_LISTED} lines that are not jobs, in line order.`,
  })
  rejected: RejectedLineDto[];
  @ApiProperty({ description: 'How many lines were rejected in all (rejected lists the first ones).' })
  rejectedTotal: number;
}
