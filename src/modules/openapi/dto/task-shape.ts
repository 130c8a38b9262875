import { humanMs, BOUNDS, SchedulerError, ValidationError } from '../../../common/index.js';
import type { SubmitTaskDto } from './task.dto.js';

/** A task body in the canonical shape, as stored and hashed: the design source's fields renamed, `handler` there. */
export type TaskBody = Omit<SubmitTaskDto, 'handler' | 'taskCode' | 'executeParams' | 'triggerType' | 'delay'> & {
  handler: string;
};

/** The canonical fields the design source spells otherwise, and how it spells them. */
const DESIGN_SOURCE = { handler: 'taskCode', params: 'executeParams', delayMs: 'delay' } as const;
type Renamed = keyof typeof DESIGN_SOURCE;
/** How the client named each renamed field: what an error about it must say. */
export type SentNames = Record<Renamed, string>;

const CANONICAL: SentNames = { handler: 'handler', params: 'params', delayMs: 'delayMs' };
const ONLY_THERE = ['taskCode', 'executeParams', 'triggerType', 'delay'] as const;

/**
 * The canonical body of a POST /api/tasks body (or of batch item `at`, e.g. `tasks[3].`) in either shape (docs/api.md
 * "The design source's shape"): taskCode → handler, executeParams → params, delay (or delayMs) → delayMs with
 * triggerType 'delay', none with 'immediate'; taskName kept; a field sent null is absent. Also how the client named
 * those fields.
 * @throws ValidationError naming the field the client sent: the two shapes mixed (taskCode with handler, params with
 * taskCode, executeParams/triggerType/delay with handler, delay with delayMs), no handler (handler, or taskCode in
 * the design source's shape), triggerType 'delay' without a delay, or 'immediate' with one.
 */
export function canonicalTask(sentDto: SubmitTaskDto, at = ''): { body: TaskBody; sent: SentNames } {
  // A null field is an absent one (its default): stored as NULL it broke NOT NULL columns (a 500, a partial batch).
  const dto = Object.fromEntries(Object.entries(sentDto).filter(([, v]) => v !== null)) as SubmitTaskDto;
  const { taskCode, executeParams, triggerType, delay, handler, ...rest } = dto;
  const bad = (field: string, message: string) => new ValidationError(`${at}${field}`, `${at}${field} ${message}`);
  const theirs = ONLY_THERE.filter((k) => dto[k] !== undefined);
  if (theirs.length === 0) {
    if (handler === undefined) throw bad('handler', 'is required');
    return { body: { ...rest, handler }, sent: CANONICAL };
  }
  if (handler !== undefined) {
    const field = taskCode !== undefined ? 'taskCode' : theirs[0];
    throw bad(field, "is of the design source's shape and handler of the canonical one: send one shape");
  }
  if (dto.params !== undefined) throw bad('params', 'is of the canonical shape: with taskCode send executeParams');
  if (taskCode === undefined) throw bad('taskCode', "is required in the design source's shape");
  if (delay !== undefined && dto.delayMs !== undefined) throw bad('delay', 'and delayMs are one field: send one');
  const delayField = delay !== undefined ? 'delay' : 'delayMs';
  const delayMs = delay ?? dto.delayMs;
  if (triggerType === 'delay' && delayMs === undefined)
    throw bad('delay', `is required with triggerType 'delay' (0 - ${humanMs(BOUNDS.delayMs.max)} in ms)`);
  if (triggerType === 'immediate' && delayMs !== undefined)
    throw bad(delayField, "must be absent with triggerType 'immediate' (use triggerType 'delay')");
  const body: TaskBody = { ...rest, handler: taskCode, params: executeParams, delayMs };
  for (const key of Object.keys(body) as Array<keyof TaskBody>) if (body[key] === undefined) delete body[key];
  return { body, sent: { ...DESIGN_SOURCE, delayMs: delayField } };
}

const FIELD = /^(tasks\[(\d+)\]\.)?(handler|params|delayMs)(?=$|\.)/;

/**
 * `err` with the field it names (and the message's mention of it) spelled as the client sent it: `taskCode` for
 * `handler`, `executeParams.url` for `params.url`, in a batch by the item's own shape (`sentOf(i)`).
 */
export function asSent(err: unknown, sentOf: (item: number | undefined) => SentNames): unknown {
  if (!(err instanceof ValidationError) || err.field === undefined) return err;
  const m = FIELD.exec(err.field);
  if (!m) return err;
  const name = sentOf(m[2] === undefined ? undefined : Number(m[2]))[m[3] as Renamed];
  if (name === m[3]) return err;
  const field = `${m[1] ?? ''}${name}${err.field.slice(m[0].length)}`;
  return new ValidationError(field, err.message.split(err.field).join(field));
}

/** Runs `check`, its ValidationError named as the client sent the field ({@link asSent}). */
export async function namedAsSent<T>(sentOf: (item?: number) => SentNames, check: () => Promise<T> | T): Promise<T> {
  try {
    return await check();
  } catch (err) {
    throw err instanceof SchedulerError ? asSent(err, sentOf) : err;
  }
}
