import {
  jsonBytes,
  MAX_BATCH_TASKS,
  MAX_CALLBACK_URL_CHARS,
  MAX_PARAMS_BYTES,
  MAX_TEXT_CHARS,
} from '../../../common/index.js';
import { BackoffKind } from '../../metadata/index.js';
import { SubmitTaskBatchDto, SubmitTaskDto } from './task.dto.js';
import { NAME_PATTERN } from './validators.js';

const BACKOFF_KINDS: unknown[] = Object.values(BackoffKind);
const isInt = (v: unknown, min: number, max: number) =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
/** class-validator's IsObject (a body is JSON.parse's: plain objects only). */
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Per property of {@link SubmitTaskDto}: true when the value passes every one of its class-validator
 * constraints (a `null`, which @IsOptional lets through unchecked, is left to class-validator).
 */
const TASK_FIELDS: Record<string, (v: unknown) => boolean> = {
  requestId: (v) => typeof v === 'string' && NAME_PATTERN.test(v),
  handler: (v) => typeof v === 'string' && NAME_PATTERN.test(v),
  params: (v) => isPlainObject(v) && jsonBytes(v) <= MAX_PARAMS_BYTES,
  delayMs: (v) => isInt(v, 0, 31 * 24 * 3600 * 1000),
  timeoutMs: (v) => isInt(v, 1, 24 * 3600 * 1000),
  heartbeatTimeoutMs: (v) => isInt(v, 0, 24 * 3600 * 1000),
  maxAttempts: (v) => isInt(v, 1, 20),
  retryBackoffMs: (v) => isInt(v, 0, 3600 * 1000),
  retryBackoffKind: (v) => BACKOFF_KINDS.includes(v),
  // MaxLength counts a surrogate pair as one character: within .length is within it too.
  routingKey: (v) => typeof v === 'string' && v.length <= MAX_TEXT_CHARS,
  callbackUrl: (v) => typeof v === 'string' && v.length <= MAX_CALLBACK_URL_CHARS,
};

/**
 * The SubmitTaskDto the validation pipe would make of `body` when `body` is certainly valid (a plain object
 * with a handler, only known properties, each passing its checks), built as class-transformer builds it;
 * undefined for anything else, which then goes through class-validator for its exact 400.
 */
export function validTask(body: unknown): SubmitTaskDto | undefined {
  if (!isPlainObject(body) || body.handler === undefined) return undefined;
  const dto = new SubmitTaskDto() as unknown as Record<string, unknown>;
  for (const key in body) {
    const check = TASK_FIELDS[key];
    const value = body[key];
    if (check === undefined || !Object.hasOwn(TASK_FIELDS, key) || !check(value)) return undefined;
    dto[key] = value;
  }
  return dto as unknown as SubmitTaskDto;
}

/** As {@link validTask}, for a POST /api/tasks/batch body: 1..MAX_BATCH_TASKS tasks, each certainly valid. */
export function validTaskBatch(body: unknown): SubmitTaskBatchDto | undefined {
  if (!isPlainObject(body)) return undefined;
  for (const key in body) if (key !== 'tasks') return undefined;
  const tasks = body.tasks;
  if (!Array.isArray(tasks) || tasks.length < 1 || tasks.length > MAX_BATCH_TASKS) return undefined;
  const dtos: SubmitTaskDto[] = [];
  for (const task of tasks) {
    const dto = validTask(task);
    if (dto === undefined) return undefined;
    dtos.push(dto);
  }
  const batch = new SubmitTaskBatchDto();
  batch.tasks = dtos;
  return batch;
}
