import { admit, compileBody } from './fast-body.js';
import { SubmitTaskBatchDto, SubmitTaskDto } from './task.dto.js';

/** The checks of SubmitTaskDto's decorators, and of the batch's own `tasks` (its items are SubmitTaskDto's). */
export const TASK_RULES = compileBody(SubmitTaskDto);
export const BATCH_RULES = compileBody(SubmitTaskBatchDto, ['tasks']);

/**
 * The SubmitTaskDto the validation pipe would make of `body` when `body` is certainly valid (a plain object
 * with every required property, only known ones, each passing its decorators' checks), built as
 * class-transformer builds it; undefined for anything else, which then goes through class-validator for its
 * exact 400.
 */
export function validTask(body: unknown): SubmitTaskDto | undefined {
  const dto = new SubmitTaskDto();
  return admit(TASK_RULES, body, dto as unknown as Record<string, unknown>) ? dto : undefined;
}

/** As {@link validTask}, for a POST /api/tasks/batch body: its `tasks` within their bounds, each certainly valid. */
export function validTaskBatch(body: unknown): SubmitTaskBatchDto | undefined {
  if (!admit(BATCH_RULES, body)) return undefined;
  const tasks = (body as { tasks: unknown[] }).tasks;
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
