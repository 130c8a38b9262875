import { type ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import { SchedulerError } from '../../../common/index.js';
import { problemFields } from '../filters/problem-details.filter.js';
import { createValidationPipe } from '../filters/validation.pipe.js';
import { validTask, validTaskBatch } from './task-body.fast.js';
import { SubmitTaskBatchDto, SubmitTaskDto } from './task.dto.js';

const meta = (dto: object): ArgumentMetadata => ({ type: 'body', metatype: dto as never, data: '' });
const piped = (dto: object, body: unknown) =>
  createValidationPipe()
    .transform(body, meta(dto))
    .catch((err: Error) => err);
const reference = (body: unknown) =>
  ValidationPipe.prototype.transform
    .call(createValidationPipe(), body, meta(SubmitTaskDto))
    .catch((err: Error) => err);

function expectRefused(got: unknown, field: string): void {
  expect(got).toBeInstanceOf(SchedulerError);
  expect(problemFields(got as SchedulerError)).toMatchObject({ status: 400, code: 'VALIDATION', field });
  expect((got as SchedulerError).message).toMatch(/control characters or lone surrogates/);
}

/** taskName is text for people (an attack run on issue 26: control characters and lone surrogates were stored). */
describe('taskName: text for people', () => {
  const task = (taskName: string) => ({ requestId: 'r-1', handler: 'noop', taskName });

  it.each([
    ['a line break', 'a\nb'],
    ['an escape sequence', '\u001b[31mred'],
    ['a NUL', 'a\u0000b'],
    ['DEL', 'a\u007fb'],
    ['a C1 control', 'a\u0085b'],
    ['a lone high surrogate', 'a\uD83Db'],
    ['a lone low surrogate', '\uDE00'],
    ['a reversed pair', '\uDE00\uD83D'],
  ])('should refuse %s with a 400 naming taskName, on both paths and in a batch', async (_what, name) => {
    expect(validTask(task(name))).toBeUndefined();
    expectRefused(await piped(SubmitTaskDto, task(name)), 'taskName');
    expectRefused(await piped(SubmitTaskBatchDto, { tasks: [task('ok'), task(name)] }), 'tasks[1].taskName');
  });

  it.each([
    ['CJK', '月度数据同步'],
    ['an emoji (a surrogate pair)', 'report 😀'],
    ['empty', ''],
    ['spaces and punctuation', 'Monthly sync — EU/2026 (v2)'],
  ])('should take %s through the fast path as class-validator does', async (_what, name) => {
    const dto = validTask(task(name));
    expect(dto).toStrictEqual(await reference(task(name)));
    expect(dto?.taskName).toBe(name);
    expect(validTaskBatch({ tasks: [task(name)] })?.tasks[0].taskName).toBe(name);
  });
});

/** A batch's tasks that are not task objects (the same attack run): the 400 says so and names the item. */
describe('a batch of things that are not tasks', () => {
  it.each<[string, unknown, string, RegExp]>([
    ['tasks as an object', { tasks: { handler: 'noop' } }, 'tasks', /tasks must be an array of task objects/],
    ['tasks as a string', { tasks: 'x' }, 'tasks', /must be an array/],
    ['an item that is a number', { tasks: [{ handler: 'noop' }, 1] }, 'tasks[1]', /tasks\[1\] must be a task object/],
    ['an item that is an array', { tasks: [[{ handler: 'noop' }]] }, 'tasks[0]', /tasks\[0\] must be a task object/],
    ['an item that is null', { tasks: [null] }, 'tasks[0]', /must be a task object/],
  ])('should refuse %s naming it in plain words', async (_what, body, field, message) => {
    const got = await piped(SubmitTaskBatchDto, body);
    expect(got).toBeInstanceOf(SchedulerError);
    expect(problemFields(got as SchedulerError)).toMatchObject({ status: 400, code: 'VALIDATION', field });
    expect((got as SchedulerError).message).toMatch(message);
  });
});
