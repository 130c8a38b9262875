import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsISO8601,
  IsObject,
  IsOptional,
  Matches,
  ValidateIf,
} from 'class-validator';
import {
  BOUNDS,
  MAX_BACKFILL_FIRES,
  MAX_BACKFILL_INSTANCES,
  nameMessage,
  TimeoutMode,
} from '../../../common/index.js';
import { BackoffKind, MisfirePolicy, OverlapPolicy, RoutingStrategy, TriggerType } from '../../metadata/index.js';
import {
  AttemptTimeoutMode,
  AttemptTimeoutMs,
  HeartbeatTimeoutMs,
  Priority,
  RetryBackoffKind,
  RetryBackoffMs,
} from './attempt-fields.js';
import { CALLBACK_URL_DESCRIPTION } from './callback.dto.js';
import {
  BoundedInt,
  BoundedJson,
  BoundedString,
  CODE_PATTERN,
  HANDLER_MESSAGE,
  MaxJsonBytes,
  NAME_PATTERN,
  NameString,
} from './validators.js';

const { code, handler, params, shardTotal, shardParams, shardParamsItems, maxConcurrency, retryMax } = BOUNDS;
const { queueLimit } = BOUNDS;
const { triggerExpr, timeZone, routingKey, callbackUrl } = BOUNDS;

/** Trigger types a job definition may have (API tasks are submitted through /api/tasks). */
const JOB_TRIGGER_TYPES = [TriggerType.CRON, TriggerType.FIXED_RATE, TriggerType.FIXED_DELAY, TriggerType.ONE_SHOT];
export const SUPPORTED_ROUTING = Object.values(RoutingStrategy);
export const SUPPORTED_OVERLAP = Object.values(OverlapPolicy);

/** POST /api/jobs body. */
export class CreateJobDto {
  @NameString(code, CODE_PATTERN, nameMessage('code', 'A-Za-z0-9_.-', code), {
    required: true,
    api: {
      description: `Code of the job, unique per app in its namespace (${code.min}-${code.max} of A-Z a-z 0-9 _ . -).`,
      example: 'health-probe',
    },
  })
  code: string;

  @BoundedString(BOUNDS.description, {
    api: { description: `Free text, at most ${BOUNDS.description.max} characters.` },
  })
  description?: string;

  @NameString(handler, NAME_PATTERN, HANDLER_MESSAGE, {
    required: true,
    api: {
      description:
        `Handler name ('noop', 'http', 'shell' when enabled, or your own @JobHandler; ${handler.min}-${handler.max} ` +
        `of A-Z a-z 0-9 _ . : -).`,
      example: 'http',
    },
  })
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

  @BoundedString(triggerExpr, {
    required: true,
    api: {
      description:
        `Cron expression, period/delay in ms, or instant (see triggerType), at most ${triggerExpr.max} characters. ` +
        `One job may make at most JOB_MAX_INSTANCES_PER_MINUTE instances a minute (default 3000): its peak fires ` +
        `per minute (a cron's values in its seconds field, 1 for 5 fields; 60000 / period for FIXED_RATE and ` +
        `FIXED_DELAY) times shardTotal; beyond, a 400 names shardTotal or triggerExpr.`,
      example: '*/10 * * * * *',
    },
  })
  triggerExpr: string;

  @BoundedString(timeZone, {
    api: {
      description: 'IANA time zone the cron expression is read in (default UTC). The host TZ never matters.',
      example: 'Europe/London',
    },
  })
  timeZone?: string;

  @BoundedJson(params, {
    api: {
      description: `Handler parameters (JSON object, at most ${params.max} bytes as JSON), given to every fire.`,
      example: { method: 'GET', url: 'http://reports.internal:8080/health' },
    },
  })
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

  @BoundedString(routingKey, {
    api: {
      description:
        'CONSISTENT_HASH: the name of a params field whose value is the routing key (so a trigger-now with other ' +
        'params can route elsewhere). Without it, or when the field is missing, the instance id is hashed.',
      example: 'tenant',
    },
  })
  routingKey?: string;

  @BoundedInt(shardTotal, {
    api: {
      description:
        `SHARDING_BROADCAST: instances per fire, ${shardTotal.min}-${shardTotal.max} (default ` +
        `${shardTotal.default}). The handler sees shardIndex (0-based) and shardTotal; each shard of a fire runs ` +
        `once whatever the node count. Peak fires per minute times shardTotal may not exceed ` +
        `JOB_MAX_INSTANCES_PER_MINUTE (default 3000).`,
      example: 3,
    },
  })
  shardTotal?: number;

  @ApiPropertyOptional({
    description:
      `SHARDING_BROADCAST: one JSON object per shard (exactly shardTotal), merged over params for that shard. At ` +
      `most ${shardParams.max} bytes as JSON in all, and each shard's params with its entry merged over them ` +
      `at most ${params.max} bytes.`,
    type: [Object], // without it the spec said an array of strings, and the typed client sent none
    example: [{ region: 'eu' }, { region: 'us' }, { region: 'ap' }],
    maxItems: shardParamsItems.max,
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(shardParamsItems.max)
  @IsObject({ each: true })
  @MaxJsonBytes(shardParams.max)
  shardParams?: Array<Record<string, unknown>>;

  @ApiPropertyOptional({
    enum: MisfirePolicy,
    description:
      'Fires missed while no scheduler led or the client was disabled (or lagging past MISFIRE_THRESHOLD_MS), ' +
      'recorded with triggerSource ' +
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
      'as CANCELLED (OVERLAP_SKIP); QUEUE keeps it WAITING (at most queueLimit) and runs fires one at a time in ' +
      'order, none while the job is paused; REPLACE cancels ' +
      'the unfinished ones (a running handler sees its signal abort at once) and runs the new one.',
  })
  @IsOptional()
  @IsIn(SUPPORTED_OVERLAP, { message: `overlapPolicy must be one of ${SUPPORTED_OVERLAP.join(', ')} in this release` })
  overlapPolicy?: OverlapPolicy;

  @BoundedInt(maxConcurrency, {
    api: {
      description:
        `Most instances of this job dispatched or running at once across the cluster (0 = no limit, the default; ` +
        `at most ${maxConcurrency.max}). Over it an instance waits as WAITING and is released, oldest first, when ` +
        `one ends: never dropped. With overlapPolicy QUEUE it must be 0 or 1.`,
      example: 2,
    },
  })
  maxConcurrency?: number;

  @BoundedInt(queueLimit, {
    api: {
      description:
        `Most fires of an overlapPolicy QUEUE job kept WAITING (${queueLimit.min} … ${queueLimit.max}, default ` +
        `${queueLimit.default}; 1 buffers one fire). A fire past it is recorded CANCELLED with an ` +
        `OVERLAP_QUEUE_FULL note and not run. Stored with any policy, used only under QUEUE.`,
      example: 1,
    },
  })
  queueLimit?: number;

  @AttemptTimeoutMs()
  timeoutMs?: number;

  @HeartbeatTimeoutMs()
  heartbeatTimeoutMs?: number;

  @Priority()
  priority?: number;
  @AttemptTimeoutMode()
  timeoutMode?: TimeoutMode;

  @BoundedInt(retryMax, {
    api: {
      description: `Retries after the first attempt (${retryMax.min}-${retryMax.max}, default ${retryMax.default}).`,
    },
  })
  retryMax?: number;

  @RetryBackoffMs()
  retryBackoffMs?: number;

  @RetryBackoffKind()
  retryBackoffKind?: BackoffKind;

  @ApiPropertyOptional({ description: 'Whether the schedule runs (default true). Pause/resume change it.' })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @BoundedString(callbackUrl, {
    api: {
      type: String,
      nullable: true,
      example: 'https://hooks.example.com/tickwheel',
      description:
        `${CALLBACK_URL_DESCRIPTION} Copied into each instance when it is created (a fire, trigger-now, backfill): ` +
        `a PATCH affects later instances only; PATCH with null clears it.`,
    },
  })
  callbackUrl?: string | null;

  @ApiPropertyOptional({
    description:
      "Per-job metrics (docs/observability.md \"Job runs\"): true counts this job's runs by final status in " +
      'tickwheel_job_runs_total{app,job,status} (within 30 s of the change on every process). Default false; ' +
      'at most JOB_METRICS_MAX (default 100) jobs of the namespace have it on: one more is a 409 naming ' +
      'metrics, and nothing is written. null is refused (it is not false).',
  })
  @ValidateIf((o: CreateJobDto) => o.metrics !== undefined) // null must fail IsBoolean: @IsOptional would let it by
  @IsBoolean()
  metrics?: boolean;
}

/** PATCH /api/jobs/{id} body: any subset of the create fields. */
export class UpdateJobDto extends PartialType(CreateJobDto) {}

/** POST /api/jobs/{id}/trigger body. */
export class TriggerJobDto {
  @BoundedJson(params, {
    api: {
      description:
        `Parameters for this run only (default: the job's), at most ${params.max} bytes as JSON; with each ` +
        `shard's shardParams merged over them, too.`,
    },
  })
  params?: Record<string, unknown>;

  @Priority("This run's priority instead of the job's. ")
  priority?: number;
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

  @ApiPropertyOptional({
    description:
      'true: answer what the backfill would do (the same figures, validation and 4xx) and write nothing: no ' +
      'instance, no audit row, nothing counted against the cap. Default false; null is refused (it is not false).',
  })
  @ValidateIf((o: BackfillDto) => o.dryRun !== undefined) // null must fail IsBoolean: @IsOptional would let it by
  @IsBoolean()
  dryRun?: boolean;
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
// The crontab import's body and answer live in crontab-import.dto.ts; importers of this file keep their names.
export { CrontabImportResultDto, ImportCrontabDto, RejectedLineDto } from './crontab-import.dto.js';
