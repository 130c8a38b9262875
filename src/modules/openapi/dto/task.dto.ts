import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  MAX_BATCH_TASKS,
  MAX_CALLBACK_URL_CHARS,
  MAX_CODE_CHARS,
  MAX_PARAMS_BYTES,
  MAX_TEXT_CHARS,
} from '../../../common/index.js';
import { BackoffKind } from '../../metadata/index.js';
import { CALLBACK_URL_DESCRIPTION, CallbackViewDto } from './callback.dto.js';
import { HEARTBEAT_TIMEOUT_DESCRIPTION, MaxJsonBytes, NAME_PATTERN } from './validators.js';

/** POST /api/tasks body. */
export class SubmitTaskDto {
  @ApiPropertyOptional({
    description:
      `Idempotency key chosen by the caller (1-${MAX_CODE_CHARS} of A-Z a-z 0-9 _ . : -). The same id with the same ` +
      `body returns the first answer; with another body it is a 409. Generated when absent.`,
    example: 'order-42-sync',
    maxLength: MAX_CODE_CHARS,
  })
  @IsOptional()
  @IsString()
  @Matches(NAME_PATTERN, { message: `requestId must be 1-${MAX_CODE_CHARS} of [A-Za-z0-9_.:-]` })
  requestId?: string;

  @ApiProperty({
    description:
      `Name of the handler that runs the task (built in: 'noop', 'http', and 'shell' when enabled; ` +
      `1-${MAX_CODE_CHARS} of A-Z a-z 0-9 _ . : -).`,
    example: 'http',
    maxLength: MAX_CODE_CHARS,
  })
  @IsString()
  @Matches(NAME_PATTERN, { message: `handler must be 1-${MAX_CODE_CHARS} of [A-Za-z0-9_.:-]` })
  handler: string;

  @ApiPropertyOptional({
    description:
      `Handler parameters (JSON object, at most ${MAX_PARAMS_BYTES} bytes as JSON: a 400 naming params beyond). For ` +
      `'http': method, url, headers, body, timeoutMs.`,
    example: { method: 'GET', url: 'http://reports.internal:8080/health' },
  })
  @IsOptional()
  @IsObject()
  @MaxJsonBytes(MAX_PARAMS_BYTES)
  params?: Record<string, unknown>;

  @ApiPropertyOptional({
    description: 'Run no earlier than this many milliseconds from now (0 - 31 days).',
    example: 0,
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(31 * 24 * 3600 * 1000)
  delayMs?: number;

  @ApiPropertyOptional({
    description:
      'Time limit of one attempt, ms (default 60000, max 24 h). On expiry the signal aborts and the attempt is ' +
      'TIMEOUT.',
    example: 60000,
  })
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

  @ApiPropertyOptional({ description: 'Attempts in all, first included (1-20, default 1).', example: 3 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(20)
  maxAttempts?: number;

  @ApiPropertyOptional({ description: 'Base delay between attempts, ms (default 1000).', example: 1000 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(3600 * 1000)
  retryBackoffMs?: number;

  @ApiPropertyOptional({ enum: BackoffKind, description: 'FIXED (default) or EXPONENTIAL (doubling, with jitter).' })
  @IsOptional()
  @IsIn(Object.values(BackoffKind))
  retryBackoffKind?: BackoffKind;

  @ApiPropertyOptional({
    description:
      `Routing key (at most ${MAX_TEXT_CHARS} characters): tasks with the same key go to the same executor while the ` +
      `node set holds (consistent hash; adding or removing one of N nodes moves about 1/N of the keys). Without it ` +
      `tasks go round robin.`,
    maxLength: MAX_TEXT_CHARS,
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_TEXT_CHARS)
  routingKey?: string;

  @ApiPropertyOptional({
    description: CALLBACK_URL_DESCRIPTION,
    example: 'https://hooks.example.com/tickwheel',
    maxLength: MAX_CALLBACK_URL_CHARS,
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_CALLBACK_URL_CHARS)
  callbackUrl?: string;
}

/** 202 answer of POST /api/tasks. */
export class TaskAcceptedDto {
  @ApiProperty({ description: 'The requestId you sent (1-128 of A-Z a-z 0-9 _ . : -): names the task from now on.' })
  requestId: string;
  @ApiProperty({ example: 'PENDING', description: 'Always PENDING: the task is stored; GET it for its state now.' })
  status: string;
  @ApiProperty({ description: 'Milliseconds until the task becomes due (its delay).' }) estimatedDelay: number;
}

/** POST /api/tasks/batch body. */
export class SubmitTaskBatchDto {
  @ApiProperty({
    type: [SubmitTaskDto],
    minItems: 1,
    maxItems: MAX_BATCH_TASKS,
    description:
      `The tasks (1-${MAX_BATCH_TASKS}), each exactly as the body of POST /api/tasks (its own requestId and ` +
      `idempotency). One invalid task refuses the whole batch with a 400 whose \`field\` names it, e.g. ` +
      `\`tasks[3].handler\`; a longer list is a 400 naming \`tasks\`, refused before its items are read.`,
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BATCH_TASKS)
  @ValidateNested({ each: true })
  @Type(() => SubmitTaskDto)
  tasks: SubmitTaskDto[];
}

/** An accepted item of a batch answer: what POST /api/tasks would answer, plus whether it replays an earlier submit. */
export class TaskBatchAcceptedItemDto extends TaskAcceptedDto {
  @ApiProperty({
    description:
      'True when the task already existed before this request (a replay: nothing new was created); the answer is ' +
      'then the first one.',
  })
  replayed: boolean;
}

/** Why one item of a batch was refused: the fields of the problem+json answer POST /api/tasks would have given. */
export class TaskBatchItemProblemDto {
  @ApiProperty({ example: 409, description: 'The HTTP status POST /api/tasks would have answered (today 409).' })
  status: number;
  @ApiProperty({ example: 'conflict', description: 'The status phrase in lower case.' }) title: string;
  @ApiProperty({ example: 'CONFLICT', description: 'Stable machine-readable code, as in a problem+json answer.' })
  code: string;
  @ApiProperty({
    example: "requestId 'order-42-sync' was already used with a different body",
    description: 'What was wrong, for a person to read.',
  })
  detail: string;
  @ApiPropertyOptional({ example: 'requestId', description: 'The input at fault, when there is one.' })
  field?: string;
}

/** A refused item of a batch answer (today only 409: requestId already used with another body). */
export class TaskBatchRefusedItemDto {
  @ApiProperty({ description: "The refused task's requestId." }) requestId: string;
  @ApiProperty({ type: TaskBatchItemProblemDto, description: 'Why it was refused (nothing was written for it).' })
  error: TaskBatchItemProblemDto;
}

/** 202 answer of POST /api/tasks/batch: one result per task, in the order of the request. */
@ApiExtraModels(TaskBatchAcceptedItemDto, TaskBatchRefusedItemDto)
export class TaskBatchAcceptedDto {
  @ApiProperty({
    description:
      'results[i] answers tasks[i]: accepted (`replayed` says whether it existed already) or refused (`error`).',
    type: 'array',
    items: {
      oneOf: [{ $ref: getSchemaPath(TaskBatchAcceptedItemDto) }, { $ref: getSchemaPath(TaskBatchRefusedItemDto) }],
    },
  })
  results: Array<TaskBatchAcceptedItemDto | TaskBatchRefusedItemDto>;
}

/** One attempt of an instance (the job_attempt row). Times are ISO-8601 UTC. */
export class AttemptViewDto {
  @ApiProperty({ description: '1-based; a retry, a lost node or lease, or a hand-back starts the next one.' })
  attempt: number;
  @ApiProperty({ description: 'The executor node that ran it.' }) nodeId: string;
  @ApiProperty({
    description: 'The fencing token the attempt ran under (docs/execution.md); a later attempt has a larger one.',
  })
  fencingToken: number;
  @ApiProperty({
    description:
      'RUNNING, SUCCESS, FAILED, TIMEOUT, CANCELLED, HANDED_BACK (its node shut down), NODE_LOST or LEASE_LOST ' +
      '(taken back).',
  })
  status: string;
  @ApiProperty({ description: 'When the attempt started, UTC ISO-8601 (ms).' }) startedAt: string;
  @ApiProperty({ nullable: true, type: String, description: 'When it ended, UTC ISO-8601 (ms); null while it runs.' })
  finishedAt: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Why it failed (cut to 4000 characters); null: none.' })
  error: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      'When the handler really returned; later than finishedAt when it ignored its abort and kept running. null: ' +
      'it has not returned (yet), or its node was lost.',
  })
  handlerEndedAt: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    enum: ['SUCCESS', 'FAILED'],
    description:
      'A late completion: how a handler that returned after its attempt was recorded ended. Never applied to ' +
      'the instance.',
  })
  lateStatus: string | null;
  @ApiProperty({ nullable: true, type: String, description: "The late completion's error (FAILED)." })
  lateError: string | null;
  @ApiProperty({
    description:
      "This attempt started while an earlier attempt's handler of the same instance still ran (two ran at once).",
  })
  overlapsPrevious: boolean;
}

/** GET /api/tasks/{requestId} answer. Times are ISO-8601 UTC. */
export class TaskViewDto {
  @ApiProperty({ description: "The task's requestId; for a job fire, one the scheduler made up." })
  requestId: string;
  @ApiProperty({ description: 'The instance id (UUID): names a job fire in /api/jobs/{id}/instances/{instanceId}.' })
  instanceId: string;
  @ApiProperty({ description: 'The handler that runs it.' }) handler: string;
  @ApiProperty({
    enum: ['PENDING', 'WAITING', 'DISPATCHED', 'RUNNING', 'SUCCESS', 'FAILED', 'TIMEOUT', 'CANCELLED'],
    description: 'Where it is (docs/state-machine.md); SUCCESS, FAILED, TIMEOUT and CANCELLED are final.',
  })
  status: string;
  @ApiProperty({ description: 'The current (or last) attempt, from 1; 0 before the first starts.' }) attempt: number;
  @ApiProperty({ description: 'Most attempts it gets (1 + retries).' }) maxAttempts: number;
  @ApiProperty({ nullable: true, type: String, description: 'The executor node it was routed to; null before.' })
  nodeId: string | null;
  @ApiProperty({ nullable: true, type: String, description: "The job's code for a job fire; null for a task." })
  jobCode: string | null;
  @ApiProperty({ description: 'Shard of the fire, 0-based (SHARDING_BROADCAST jobs; 0 otherwise).' })
  shardIndex: number;
  @ApiProperty({ description: 'Shards of the fire (1 unless SHARDING_BROADCAST).' }) shardTotal: number;
  @ApiProperty({
    enum: ['SCHEDULE', 'API', 'MANUAL', 'BACKFILL', 'RETRY', 'MISFIRE'],
    description: 'What created it: API for a task, SCHEDULE for a fire, MANUAL for trigger-now, BACKFILL...',
  })
  triggerSource: string;
  @ApiProperty({ nullable: true, description: 'What the handler returned (JSON, at most 65,535 bytes); null: none.' })
  result: unknown;
  @ApiProperty({
    nullable: true,
    type: String,
    description: "The outcome's error, once final; an earlier attempt's error is in `attempts`.",
  })
  error: string | null;
  @ApiProperty({ description: 'Trace id of its log lines (docs/observability.md "Logs").' }) traceId: string;
  @ApiProperty({ description: 'The scheduled fire time (a task: when it was submitted), UTC ISO-8601 (ms).' })
  fireTime: string;
  @ApiProperty({ description: 'When it becomes due to run (fire time + delayMs, or a retry backoff), UTC ISO-8601.' })
  dueAt: string;
  @ApiProperty({ description: 'When the row was written, UTC ISO-8601 (ms).' }) createdAt: string;
  @ApiProperty({ nullable: true, type: String, description: 'When it was routed to a node, UTC ISO-8601; or null.' })
  dispatchedAt: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'When its last attempt started, UTC ISO-8601; null: not.' })
  startedAt: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'When it reached its final state, UTC ISO-8601; or null.' })
  finishedAt: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      'When the handler last stored a checkpoint (`ctx.checkpoint`, docs/long-tasks.md); null: none. The state ' +
      'itself is not shown.',
  })
  checkpointAt: string | null;
  @ApiProperty({
    nullable: true,
    type: Number,
    description: 'The attempt that stored the last checkpoint; the next attempt resumes from it. Null: none.',
  })
  checkpointAttempt: number | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: "The instance's own callback URL (the task's, or its job's when it was created); null: none.",
  })
  callbackUrl: string | null;
  @ApiProperty({
    nullable: true,
    type: CallbackViewDto,
    description:
      'The callback delivery, written when the instance reached its final state with a callback URL (its own, ' +
      "else the app's registration for the handler, else its default); null before that, or when none applied. " +
      'POST …/callback/redeliver sends it again.',
  })
  callback: CallbackViewDto | null;
  @ApiProperty({
    nullable: true,
    type: Number,
    description: 'Last progress the handler reported (ctx.progress), a fraction 0..1; null: none reported.',
  })
  progress: number | null;
  @ApiProperty({ nullable: true, type: String, description: 'The note of that report (at most 256 characters).' })
  progressNote: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      'When that report was stored (at most one write per PROGRESS_WRITE_INTERVAL_MS per instance; later ' +
      'reports coalesce).',
  })
  progressAt: string | null;
  @ApiProperty({ description: 'Heartbeat timeout of its attempts, ms (docs/long-tasks.md); 0 = none.' })
  heartbeatTimeoutMs: number;
  @ApiPropertyOptional({
    type: [AttemptViewDto],
    description:
      'Every attempt so far, oldest first: on reads of one instance (GET of a task or of a job instance), not in ' +
      'lists.',
  })
  attempts?: AttemptViewDto[];
  @ApiPropertyOptional({
    description:
      'On reads of one instance: why a due PENDING instance is not moving, e.g. no live executor advertises its ' +
      'handler. On any read: which stored fields cannot be read (a corrupt row, e.g. params cut at 65,535 bytes), ' +
      'shown as null.',
  })
  note?: string;
}

/** POST /api/jobs/{id}/trigger answer: the new instance; for a sharded job shard 0, and every shard under `shards`. */
export class TriggerViewDto extends TaskViewDto {
  @ApiPropertyOptional({
    type: [TaskViewDto],
    description: 'Every shard of the fire, by shard index (SHARDING_BROADCAST jobs only).',
  })
  shards?: TaskViewDto[];
}
