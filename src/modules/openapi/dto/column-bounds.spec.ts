import { getMetadataStorage } from 'class-validator';
import { getMetadataArgsStorage } from 'typeorm';
import { CallbackRegistration, JobDefinition, JobInstance } from '../../metadata/index.js';
import { RegisterCallbackDto } from './callback.dto.js';
import { CreateJobDto, ImportCrontabDto } from './job.dto.js';
import { SubmitTaskDto } from './task.dto.js';

type Ctor = new (...args: never[]) => unknown;

/** The most characters a DTO string property accepts: its MaxLength, or the `{1,n}` of its Matches pattern. */
function dtoBound(dto: Ctor, property: string): number | undefined {
  const checks = getMetadataStorage()
    .getTargetValidationMetadatas(dto, '', true, false)
    .filter((m) => m.propertyName === property);
  const bounds = checks.flatMap((m) => {
    if (m.name === 'maxLength') return [Number(m.constraints[0])];
    if (m.name === 'matches') {
      const range = /\{1,(\d+)\}\$$/.exec(String((m.constraints[0] as RegExp).source));
      return range ? [Number(range[1])] : [];
    }
    return [];
  });
  return bounds.length > 0 ? Math.min(...bounds) : undefined;
}

/** VARCHAR length of an entity property's column. */
function columnLength(entity: Ctor, property: string): number {
  const column = getMetadataArgsStorage().columns.find((c) => c.target === entity && c.propertyName === property);
  if (!column) throw new Error(`${entity.name}.${property} has no column`);
  return Number(column.options.length);
}

/**
 * Every string a caller stores has a DTO bound no longer than its column (a longer value is a 500 in MariaDB's strict
 * mode, a silent cut under INSERT IGNORE). JSON fields are checked by MaxJsonBytes.
 */
describe('DTO string bounds fit their columns', () => {
  const cases: Array<[Ctor, string, Ctor, string]> = [
    [CreateJobDto, 'code', JobDefinition, 'code'],
    [CreateJobDto, 'description', JobDefinition, 'description'],
    [CreateJobDto, 'handler', JobDefinition, 'handler'],
    [CreateJobDto, 'triggerExpr', JobDefinition, 'triggerExpr'],
    [CreateJobDto, 'timeZone', JobDefinition, 'timeZone'],
    [CreateJobDto, 'routingKey', JobDefinition, 'routingKey'],
    [CreateJobDto, 'code', JobInstance, 'jobCode'],
    [SubmitTaskDto, 'requestId', JobInstance, 'requestId'],
    [SubmitTaskDto, 'handler', JobInstance, 'handler'],
    [SubmitTaskDto, 'routingKey', JobInstance, 'routingKey'],
    [SubmitTaskDto, 'callbackUrl', JobInstance, 'callbackUrl'],
    [CreateJobDto, 'callbackUrl', JobDefinition, 'callbackUrl'],
    [RegisterCallbackDto, 'url', CallbackRegistration, 'url'],
    [RegisterCallbackDto, 'handler', CallbackRegistration, 'handler'],
    [ImportCrontabDto, 'timeZone', JobDefinition, 'timeZone'],
  ];

  it.each(
    cases.map(([dto, property, entity, column]) => [dto.name, property, entity.name, column, dto, entity] as const),
  )('%s.%s fits %s.%s', (_d, property, _e, column, dto, entity) => {
    const bound = dtoBound(dto, property);
    expect(bound).toBeDefined();
    expect(bound).toBeLessThanOrEqual(columnLength(entity, column));
  });

  it('keeps every string column of a job definition a caller writes bounded by the create DTO', () => {
    const written = new Set(
      Object.keys(
        getMetadataStorage()
          .getTargetValidationMetadatas(CreateJobDto, '', true, false)
          .reduce((o, m) => ({ ...o, [m.propertyName]: 1 }), {}),
      ),
    );
    const strings = getMetadataArgsStorage().columns.filter(
      (c) => c.target === JobDefinition && c.options.type === 'varchar' && written.has(c.propertyName),
    );
    expect(strings.map((c) => c.propertyName).sort()).toEqual([
      'callbackUrl',
      'code',
      'description',
      'handler',
      'misfirePolicy',
      'overlapPolicy',
      'retryBackoffKind',
      'routingKey',
      'routingStrategy',
      'timeZone',
      'timeoutMode',
      'triggerExpr',
      'triggerType',
    ]);
    for (const c of strings) {
      const bounded = dtoBound(CreateJobDto, c.propertyName) ?? enumBound(c.propertyName);
      expect({ field: c.propertyName, fits: bounded <= Number(c.options.length) }).toEqual({
        field: c.propertyName,
        fits: true,
      });
    }
  });
});

/** The longest value of an IsIn-checked property of CreateJobDto (its enum). */
function enumBound(property: string): number {
  const isIn = getMetadataStorage()
    .getTargetValidationMetadatas(CreateJobDto, '', true, false)
    .find((m) => m.propertyName === property && m.name === 'isIn');
  if (!isIn) return Number.POSITIVE_INFINITY;
  return Math.max(...(isIn.constraints[0] as string[]).map((v) => v.length));
}
