import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsOptional, ValidateNested } from 'class-validator';
import { BOUNDS, humanMs, nameMessage, TimeoutMode } from '../../../common/index.js';
import { BackoffKind } from '../../metadata/index.js';
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
  PeopleString,
  HANDLER_MESSAGE,
  NAME_PATTERN,
  NameString,
  REQUEST_ID_PATTERN,
} from './validators.js';

const { requestId, handler, params, delayMs, maxAttempts, routingKey, callbackUrl, tasks, taskName } = BOUNDS;

/** The design source's `triggerType` of a task (docs/api.md "The design source's shape"). */
export const TASK_TRIGGER_TYPES = ['delay', 'immediate'] as const;
const ALT = "Of the design source's shape (docs/api.md): ";

/**
 * POST /api/tasks body, in the canonical shape (handler, params, delayMs) or the design source's (taskCode,
 * executeParams, triggerType, delay), never both (canonicalTask); taskName in either.
 */
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
    api: {
      description:
        `Name of the handler that runs the task (built in: 'noop', 'http', and 'shell' when enabled; ` +
        `${handler.min}-${handler.max} of A-Z a-z 0-9 _ . : -). Required, unless the body is in the design ` +
        `source's shape (taskCode).`,
      example: 'http',
    },
  })
  handler?: string;

  @NameString(handler, NAME_PATTERN, nameMessage('taskCode', 'A-Za-z0-9_.:-', handler), {
    api: { description: `${ALT}the handler (as \`handler\`); required in that shape.`, example: 'data_sync_report' },
  })
  taskCode?: string;

  @PeopleString(taskName, {
    api: {
      description:
        `A name for people (at most ${taskName.max} characters; no control characters), stored and shown in the ` +
        `task's views; in either shape.`,
      example: '月度数据同步',
    },
  })
  taskName?: string;

  @IsOptional()
  @IsIn(TASK_TRIGGER_TYPES, { message: "triggerType must be 'delay' or 'immediate'" })
  @ApiPropertyOptional({
    enum: TASK_TRIGGER_TYPES,
    description:
      `${ALT}'immediate' (run when due now) or 'delay' (run \`delay\` ms from now; \`delay\` required). ` +
      `Default: 'delay' with a delay, else 'immediate'.`,
  })
  triggerType?: (typeof TASK_TRIGGER_TYPES)[number];

  @BoundedJson(params, {
    api: { description: `${ALT}the handler parameters (as \`params\`, same bound).` },
  })
  executeParams?: Record<string, unknown>;

  @BoundedInt(delayMs, {
    api: {
      description: `${ALT}milliseconds from now before it runs (as \`delayMs\`, 0 - ${humanMs(delayMs.max)}).`,
      example: 60_000,
    },
  })
  delay?: number;

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

  @Priority()
  priority?: number;
  @AttemptTimeoutMode()
  timeoutMode?: TimeoutMode;

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

// The views of an instance live in task-view.dto.ts; importers of this file keep their names.
export { AttemptViewDto, TaskViewDto, TriggerViewDto } from './task-view.dto.js';
