import { type ArgumentMetadata, ValidationError as ClassValidatorError, ValidationPipe } from '@nestjs/common';
import { BOUNDS, ValidationError } from '../../../common/index.js';
import { validTask, validTaskBatch } from '../dto/task-body.fast.js';
import { SubmitTaskBatchDto, SubmitTaskDto } from '../dto/task.dto.js';
import { validClaim, validFinishes } from '../dto/worker-body.fast.js';
import { WorkerClaimDto, WorkerFinishesDto } from '../dto/worker.dto.js';

/**
 * Bodies of the hot routes that a plain check proves valid skip class-transformer and class-validator (the
 * same DTO results); anything else, every invalid body included, takes the full pipe and its exact 400.
 */
const FAST_BODIES = new Map<unknown, (body: unknown) => object | undefined>([
  [SubmitTaskDto, validTask],
  [SubmitTaskBatchDto, validTaskBatch],
  [WorkerClaimDto, validClaim],
  [WorkerFinishesDto, validFinishes],
]);

class BodyValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const fast = metadata.type === 'body' ? FAST_BODIES.get(metadata.metatype) : undefined;
    const done = fast?.(value);
    if (done) return done;
    if (metadata.type === 'body' && metadata.metatype === SubmitTaskBatchDto) checkBatchShape(value);
    return super.transform(value, metadata);
  }
}

/**
 * A batch's `tasks` that is not a list of objects, named in plain words: class-transformer's read "tasks is
 * required" for an object, "must be either object or array" for a number, and let an array item through.
 * A list past its bound is left to ArrayMaxSize (refused before its items are read).
 * @throws ValidationError naming `tasks` or `tasks[i]`.
 */
function checkBatchShape(value: unknown): void {
  const tasks = typeof value === 'object' && value !== null ? (value as { tasks?: unknown }).tasks : undefined;
  if (tasks === undefined || tasks === null) return;
  if (!Array.isArray(tasks)) throw new ValidationError('tasks', 'tasks must be an array of task objects');
  if (tasks.length > BOUNDS.tasks.max) return;
  const i = tasks.findIndex((t) => typeof t !== 'object' || t === null || Array.isArray(t));
  if (i >= 0) throw new ValidationError(`tasks[${i}]`, `tasks[${i}] must be a task object`);
}

/**
 * Body/query validation with class-validator: unknown properties are refused (a typo is an error, not
 * silently ignored) and the first failure becomes a 400 naming the field by its path, array items by
 * index (`tasks[3].handler`); a nested failure's message starts with the path of its parent. A field
 * that is missing reads "<field> is required" (not "must be a string").
 */
export function createValidationPipe(): ValidationPipe {
  return new BodyValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: (errors: ClassValidatorError[]) => {
      const [path, message] = firstError(errors, '');
      return new ValidationError(path, message);
    },
  });
}

/**
 * Constraints that say what kind of value a field takes (or that it must not be there); reported before any
 * range check.
 */
const TYPE_CONSTRAINTS = [
  'whitelistValidation',
  'isDefined',
  'isInt',
  'isNumber',
  'isBoolean',
  'isString',
  'isObject',
  'isArray',
  'isIn',
  'isEnum',
  'matches',
];

function firstError(errors: ClassValidatorError[], prefix: string): [string, string] {
  const e = errors[0];
  const path = !prefix ? e.property : /^\d+$/.test(e.property) ? `${prefix}[${e.property}]` : `${prefix}.${e.property}`;
  if (e.constraints) {
    // A failed check on a value that is not there: the field is required (optional ones are not checked then).
    const message = e.value === undefined ? `${e.property} is required` : firstMessage(e.constraints);
    return [path, prefix ? `${prefix}: ${message}` : message];
  }
  if (e.children?.length) return firstError(e.children, path);
  return [path, `${path} is invalid`];
}

/**
 * class-validator lists a property's failed constraints with the range checks first, so `limit=abc`
 * would read "limit must not be greater than 500"; the type check is what to fix, so it wins.
 */
function firstMessage(constraints: Record<string, string>): string {
  const key = TYPE_CONSTRAINTS.find((k) => k in constraints) ?? Object.keys(constraints)[0];
  return constraints[key];
}
