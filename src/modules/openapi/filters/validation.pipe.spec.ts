import { type ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import { BOUNDS, MAX_CALLBACK_URL_CHARS, MAX_PARAMS_BYTES, MAX_TEXT_CHARS } from '../../../common/index.js';
import { validTask, validTaskBatch } from '../dto/task-body.fast.js';
import { SubmitTaskBatchDto, SubmitTaskDto } from '../dto/task.dto.js';
import { createValidationPipe } from './validation.pipe.js';

const clone = (v: unknown): unknown => (v === undefined ? v : JSON.parse(JSON.stringify(v)));
const body = (metatype: unknown): ArgumentMetadata => ({ type: 'body', metatype: metatype as never, data: '' });
const full = {
  requestId: 'order-42.sync:1',
  handler: 'http',
  params: { url: 'http://x', nested: [1, { a: null }] },
  delayMs: 31 * 24 * 3600 * 1000,
  timeoutMs: 1,
  heartbeatTimeoutMs: 0,
  maxAttempts: 20,
  retryBackoffMs: 3600 * 1000,
  retryBackoffKind: 'EXPONENTIAL',
  routingKey: 'k'.repeat(MAX_TEXT_CHARS),
  callbackUrl: 'https://hooks.example.com/' + 'a'.repeat(MAX_CALLBACK_URL_CHARS - 26),
};
/** The other edge of each range `full` does not sit at. */
const otherEdges = {
  ...full,
  params: { blob: 'x'.repeat(MAX_PARAMS_BYTES - '{"blob":""}'.length) },
  delayMs: 0,
  timeoutMs: BOUNDS.timeoutMs.max,
  heartbeatTimeoutMs: BOUNDS.heartbeatTimeoutMs.max,
  maxAttempts: 1,
  retryBackoffMs: 0,
  retryBackoffKind: 'FIXED',
  requestId: 'r'.repeat(BOUNDS.requestId.max),
  handler: 'h'.repeat(BOUNDS.handler.max),
};
const VALID: unknown[] = [
  { handler: 'noop' },
  { requestId: 'r-1', handler: 'noop' },
  full,
  { ...full, params: {} },
  otherEdges,
];
// `{}` passes the pipe: a body without handler (or taskCode) is refused by canonicalTask, on either path.
const INVALID: unknown[] = [
  [],
  { taskCode: 'no op' },
  { taskCode: 'noop', triggerType: 'cron' },
  { taskCode: 'noop', taskName: 'n'.repeat(MAX_TEXT_CHARS + 1) },
  { taskCode: 'noop', delay: -1 },
  { taskCode: 'noop', executeParams: [] },
  null,
  { handler: 'no op' },
  { handler: 1 },
  { handler: 'noop', extra: 1 },
  { handler: 'noop', toString: 'x' },
  { handler: 'noop', requestId: '' },
  { handler: 'noop', requestId: 'r'.repeat(129) },
  { handler: 'noop', params: [] },
  { handler: 'noop', params: null },
  { handler: 'noop', params: { big: 'x'.repeat(MAX_PARAMS_BYTES) } },
  { handler: 'noop', delayMs: -1 },
  { handler: 'noop', delayMs: 1.5 },
  { handler: 'noop', delayMs: '1' },
  { handler: 'noop', delayMs: null },
  { handler: 'noop', timeoutMs: 0 },
  { handler: 'noop', maxAttempts: 21 },
  { handler: 'noop', retryBackoffKind: 'LINEAR' },
  { handler: 'noop', routingKey: 'k'.repeat(MAX_TEXT_CHARS + 1) },
  { handler: 'noop', routingKey: '😀'.repeat(MAX_TEXT_CHARS - 1) }, // longer in .length, within MaxLength
  { handler: 'noop', callbackUrl: 7 },
  { handler: 'noop', timeoutMs: BOUNDS.timeoutMs.max + 1 },
  { handler: 'noop', heartbeatTimeoutMs: BOUNDS.heartbeatTimeoutMs.max + 1 },
  { handler: 'noop', heartbeatTimeoutMs: -1 },
  { handler: 'noop', delayMs: BOUNDS.delayMs.max + 1 },
  { handler: 'noop', retryBackoffMs: BOUNDS.retryBackoffMs.max + 1 },
  { handler: 'noop', retryBackoffMs: -1 },
  { handler: 'noop', maxAttempts: 0 },
  { handler: 'h'.repeat(BOUNDS.handler.max + 1) },
  { handler: null },
  { handler: 'noop', requestId: null },
  { handler: 'noop', callbackUrl: 'u'.repeat(MAX_CALLBACK_URL_CHARS + 1) },
  { handler: 'noop', params: { blob: 'x'.repeat(MAX_PARAMS_BYTES - '{"blob":""}'.length + 1) } },
];

/** The class-validator answer: the DTO, or the 400 it throws. */
async function reference(value: unknown, metatype: unknown): Promise<unknown> {
  const pipe = createValidationPipe();
  return ValidationPipe.prototype.transform.call(pipe, clone(value), body(metatype)).catch((e: Error) => e);
}

describe('validation pipe fast path of task bodies', () => {
  it('should give exactly the DTO class-validator gives, for the valid bodies it takes', async () => {
    for (const v of VALID) {
      const fast = validTask(clone(v));
      expect(fast).toBeInstanceOf(SubmitTaskDto);
      expect(fast).toStrictEqual(await reference(v, SubmitTaskDto));
    }
    const batch = { tasks: VALID };
    expect(validTaskBatch(clone(batch))).toStrictEqual(await reference(batch, SubmitTaskBatchDto));
  });

  it('should leave every body it cannot prove valid to class-validator, which answers as before', async () => {
    for (const v of INVALID) {
      expect(validTask(clone(v))).toBeUndefined();
      const pipe = createValidationPipe();
      const got = await pipe.transform(clone(v), body(SubmitTaskDto)).catch((e: Error) => e);
      expect(got).toStrictEqual(await reference(v, SubmitTaskDto));
    }
    for (const tasks of [[], VALID.concat(INVALID.slice(3, 4)), Array.from({ length: 1001 }, () => VALID[0])])
      expect(validTaskBatch({ tasks })).toBeUndefined();
    expect(validTaskBatch({ tasks: VALID, more: 1 })).toBeUndefined();
  });
});
