import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, ValidateNested } from 'class-validator';
import { BOUNDS, humanMs, nameMessage } from '../../../common/index.js';
import { BackoffKind } from '../../metadata/index.js';
import {
  AttemptTimeoutMs,
  HeartbeatTimeoutMs,
  RetryBackoffKind,
  RetryBackoffMs,
} from './attempt-fields.js';
import { CALLBACK_URL_DESCRIPTION, CallbackViewDto } from './callback.dto.js';
import {
  BoundedInt,
  BoundedJson,
  BoundedString,
  HANDLER_MESSAGE,
  NAME_PATTERN,
  NameString,
  REQUEST_ID_PATTERN,
} from './validators.js';

const { requestId, handler, params, delayMs, maxAttempts, routingKey, callbackUrl, tasks } = BOUNDS;

/** POST /api/tasks body. */
export class SubmitTaskDto {
  @NameString(requestId, REQUEST_ID_PATTERN, nameMessage('requestId', 'A-Za-z0-9_.:-', requestId), {
    api: {
      description:
        `Idempotency key chosen by the caller (${requestId.min}-${requestId.max} of A-Z a-z 0-9 _ . : -). The same ` +
        `id with the same body returns the first answer; with another body it is a 409. Generated when absent.`,
      example: 'order-42-sync',
    },
  })
  requestId?: string;

  @NameString(handler, NAME_PATTERN, HANDLER_MESSAGE, {
    required: true,
    api: {
      description:
        `Name of the handler that runs the task (built in: 'noop', 'http', and 'shell' when enabled; ` +
        `${handler.min}-${handler.max} of A-Z a-z 0-9 _ . : -).`,
      example: 'http',
    },
  })
  handler: string;

  @BoundedJson(params, {
    api: {
      description:
        `Handler parameters (JSON object, at most ${params.max} bytes as JSON: a 400 naming params beyond). For ` +
        `'http': method, url, headers, body, timeoutMs.`,
      example: { method: 'GET', url: 'http://reports.internal:8080/health' },
    },
  })
  params?: Record<string, unknown>;

  @BoundedInt(delayMs, {
    api: {
      description: `Run no earlier than this many milliseconds from now (0 - ${humanMs(delayMs.max)}).`,
      example: 0,
    },
  })
  delayMs?: number;

  @AttemptTimeoutMs()
  timeoutMs?: number;

  @HeartbeatTimeoutMs()
  heartbeatTimeoutMs?: number;

  @BoundedInt(maxAttempts, {
    api: {
      description:
        `Attempts in all, first included (${maxAttempts.min}-${maxAttempts.max}, default ` +
        `${maxAttempts.default}).`,
      example: 3,
    },
  })
  maxAttempts?: number;

  @RetryBackoffMs()
  retryBackoffMs?: number;

  @RetryBackoffKind()
  retryBackoffKind?: BackoffKind;

  @BoundedString(routingKey, {
    api: {
      description:
        `Routing key (at most ${routingKey.max} characters): tasks with the same key go to the same executor while ` +
        `the node set holds (consistent hash; adding or removing one of N nodes moves about 1/N of the keys). ` +
        `Without it tasks go round robin.`,
    },
  })
  routingKey?: string;

  @BoundedString(callbackUrl, {
    api: { description: CALLBACK_URL_DESCRIPTION, example: 'https://hooks.example.com/tickwheel' },
  })
  callbackUrl?: string;
}

/**
 * 202 answer of POST /api/tasks: a new task PENDING; a replay (its requestId and body seen before) the task as it is
 * now, with its result and error once final.
 */
export class TaskAcceptedDto {
  @ApiProperty({
    description:
      `The requestId you sent (${requestId.min}-${requestId.max} of A-Z a-z 0-9 _ . : -): names the task from ` +
      `now on.`,
  })
  requestId: string;
  @ApiProperty({
    example: 'PENDING',
    enum: ['PENDING', 'WAITING', 'DISPATCHED', 'RUNNING', 'SUCCESS', 'FAILED', 'TIMEOUT', 'CANCELLED'],
    description:
      'PENDING for a new task (stored; GET it for its state later). A replay (Idempotency-Replayed: true) answers ' +
      "the existing task's status now, e.g. SUCCESS for one that has ended.",
  })
  status: string;
  @ApiProperty({ description: 'Milliseconds until the task becomes due (its delay).' }) estimatedDelay: number;
  @ApiPropertyOptional({
    nullable: true,
    description:
      'Only on a replay of a task that has ended (SUCCESS, FAILED, TIMEOUT, CANCELLED): what its handler returned, ' +
      'as GET shows it; null: none.',
  })
  result?: unknown;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    description: 'Only on a replay of a task that has ended: its error, as GET shows it; null: none.',
  })
  error?: string | null;
}

/** POST /api/tasks/batch body. */
export class SubmitTaskBatchDto {
  @ApiProperty({
    type: [SubmitTaskDto],
    minItems: tasks.min,
    maxItems: tasks.max,
    description:
      `The tasks (${tasks.min}-${tasks.max}), each exactly as the body of POST /api/tasks (its own requestId and ` +
      `idempotency). One invalid task refuses the whole batch with a 400 whose \`field\` names it, e.g. ` +
      `\`tasks[3].handler\`; a longer list is a 400 naming \`tasks\`, refused before its items are read.`,
  })
  @IsArray()
  @ArrayMinSize(tasks.min)
  @ArrayMaxSize(tasks.max)
  @ValidateNested({ each: true })
  @Type(() => SubmitTaskDto)
  tasks: SubmitTaskDto[];
}

/** An accepted item of a batch answer: what POST /api/tasks would answer, plus whether it replays an earlier submit. */
export class TaskBatchAcceptedItemDto extends TaskAcceptedDto {
  @ApiProperty({
    description:
      'True when the task already existed before this request (a replay: nothing new was created); the item then ' +
      'shows the task as it is now (its status, and its result and error once it has ended).',
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
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'Why it failed (at most 4000 characters, a cut one ending ` …[N characters cut]`); null: none.',
  })
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
  @ApiProperty({
    description: "The app that owns it: the task's submitter, or the job's owner (an admin names it with ?appId=).",
  })
  appId: string;
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
