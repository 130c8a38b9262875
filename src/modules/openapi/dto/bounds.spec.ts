import { NodeListQueryDto } from './node.dto.js';
import { type ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { type Bound, type BoundName, BOUNDS, SchedulerError } from '../../../common/index.js';
import { problemFields } from '../filters/problem-details.filter.js';
import { createValidationPipe } from '../filters/validation.pipe.js';
import { AuditQueryDto } from './audit.dto.js';
import { RegisterCallbackDto } from './callback.dto.js';
import { CallbackHostListQueryDto, RedeliverHostDto } from './callback-host.dto.js';
import { ClientListQueryDto, CreateClientDto, UpdateClientDto } from './client.dto.js';
import { CreateJobDto, ImportCrontabDto, TriggerJobDto, UpdateJobDto } from './job.dto.js';
import { ListQueryDto } from './list.dto.js';
import { CreateNotificationRuleDto, NotificationRuleBodyDto } from './notification-rule.dto.js';
import { LogQueryDto } from './log.dto.js';
import { DeliveryListQueryDto } from './delivery-list.dto.js';
import { NotificationListQueryDto } from './notification.dto.js';
import { OverviewQueryDto } from './overview.dto.js';
import {
  CallbackHandlerQueryDto,
  CallbackOwnerQueryDto,
  InstanceListQueryDto,
  JobListQueryDto,
  OwnerListQueryDto,
  OwnerQueryDto,
} from './owner-query.dto.js';
import { ScheduleLoadQueryDto, SchedulePreviewDto } from './schedule.dto.js';
import { TaskListQueryDto } from './task-list.dto.js';
import { validTask, validTaskBatch } from './task-body.fast.js';
import { SubmitTaskBatchDto, SubmitTaskDto } from './task.dto.js';
import {
  AttemptRefDto,
  RegisterWorkerDto,
  WorkerCheckpointDto,
  WorkerClaimDto,
  WorkerFinishesDto,
  WorkerFinishDto,
  WorkerHeartbeatDto,
  WorkerLeasesDto,
  WorkerLogLineDto,
  WorkerLogsDto,
  WorkerProgressDto,
} from './worker.dto.js';

type Ctor = new () => object;

/** One field of a request DTO held to a BOUNDS entry: a valid body without it, and how to make its value of size n. */
interface Edge {
  bound: BoundName;
  dto: Ctor;
  field: string;
  base: Record<string, unknown>;
  value: (n: number) => unknown;
  query?: boolean;
}

const int = (n: number) => n;
const chars = (n: number) => 'a'.repeat(n);
/** A JSON object whose JSON text is exactly n UTF-8 bytes. */
const bytes = (n: number) => ({ blob: 'x'.repeat(n - '{"blob":""}'.length) });
const items = (item: unknown) => (n: number) => Array.from({ length: n }, () => item);

const TASK = { handler: 'noop' };
const JOB = { code: 'c', handler: 'noop', triggerType: 'CRON', triggerExpr: '0 0 1 1 *' };
const edge = (bound: BoundName, dto: Ctor, base: Record<string, unknown>, value: (n: number) => unknown) =>
  (field: string): Edge => ({ bound, dto, field, base, value });
const query = (bound: BoundName, dto: Ctor, field: string = bound): Edge => ({
  bound,
  dto,
  field,
  base: {},
  value: (n) => String(n),
  query: true,
});

const TASK_FIELDS: Array<[BoundName, (n: number) => unknown, string?]> = [
  ['requestId', chars],
  ['handler', chars],
  ['params', bytes],
  ['delayMs', int],
  // the design source's shape (docs/api.md): the same bounds under its names; taskName in either shape
  ['handler', chars, 'taskCode'],
  ['params', bytes, 'executeParams'],
  ['delayMs', int, 'delay'],
  ['taskName', chars],
  ['timeoutMs', int],
  ['heartbeatTimeoutMs', int],
  ['priority', int],
  ['maxAttempts', int],
  ['retryBackoffMs', int],
  ['routingKey', chars],
  ['callbackUrl', chars],
];
const JOB_FIELDS: Array<[BoundName, (n: number) => unknown, string?]> = [
  ['code', chars],
  ['description', chars],
  ['handler', chars],
  ['triggerExpr', chars],
  ['timeZone', chars],
  ['params', bytes],
  ['routingKey', chars],
  ['shardTotal', int],
  ['shardParams', (n) => [bytes(n - 2)], 'shardParams'],
  ['shardParamsItems', items({}), 'shardParams'],
  ['maxConcurrency', int],
  ['queueLimit', int],
  ['timeoutMs', int],
  ['heartbeatTimeoutMs', int],
  ['priority', int],
  ['retryMax', int],
  ['retryBackoffMs', int],
  ['callbackUrl', chars],
];
const LISTS: Ctor[] = [
  ListQueryDto,
  OwnerListQueryDto,
  InstanceListQueryDto,
  AuditQueryDto,
  ClientListQueryDto,
  JobListQueryDto,
  TaskListQueryDto,
  DeliveryListQueryDto,
  NotificationListQueryDto,
  CallbackHostListQueryDto,
];
const CLIENT_LIMITS: BoundName[] = ['rateLimit', 'rateBurst', 'maxJobs', 'maxUnfinishedTasks'];

const LINE = { level: 'info', message: 'm', at: 1 };
/** The app worker routes' bodies (docs/workers.md), each with every other field valid. */
const WORKER_EDGES: Edge[] = [
  edge('workerHandlers', RegisterWorkerDto, { capacity: 1 }, items('h'))('handlers'),
  edge('workerCapacity', RegisterWorkerDto, { handlers: ['h'] }, int)('capacity'),
  edge('workerHost', RegisterWorkerDto, { handlers: ['h'], capacity: 1 }, chars)('host'),
  edge('workerActive', WorkerHeartbeatDto, {}, int)('active'),
  edge('claimMax', WorkerClaimDto, { waitMs: 0 }, int)('max'),
  edge('claimWaitMs', WorkerClaimDto, { max: 1 }, int)('waitMs'),
  edge('finishItems', WorkerFinishesDto, {}, items({ instanceId: 'a', fencingToken: 1, outcome: 'SUCCESS' }))('items'),
  edge('leaseAttempts', WorkerLeasesDto, {}, items({ instanceId: 'a', fencingToken: 1 }))('attempts'),
  edge('fencingToken', AttemptRefDto, { instanceId: 'a' }, int)('fencingToken'),
  edge('instanceId', AttemptRefDto, { fencingToken: 1 }, chars)('instanceId'),
  edge('fencingToken', WorkerCheckpointDto, { state: 1 }, int)('fencingToken'),
  edge('fencingToken', WorkerProgressDto, { fraction: 0 }, int)('fencingToken'),
  edge('fraction', WorkerProgressDto, { fencingToken: 1 }, int)('fraction'),
  edge('progressNote', WorkerProgressDto, { fencingToken: 1, fraction: 0 }, chars)('note'),
  edge('fencingToken', WorkerLogsDto, { lines: [LINE] }, int)('fencingToken'),
  edge('logLines', WorkerLogsDto, { fencingToken: 1 }, items(LINE))('lines'),
  edge('logMessage', WorkerLogLineDto, { level: 'info', at: 1 }, chars)('message'),
  edge('epochMs', WorkerLogLineDto, { level: 'info', message: 'm' }, int)('at'),
  edge('fencingToken', WorkerFinishDto, { outcome: 'SUCCESS' }, int)('fencingToken'),
  edge('workerError', WorkerFinishDto, { fencingToken: 1, outcome: 'FAILED' }, chars)('error'),
  edge('epochMs', WorkerFinishDto, { fencingToken: 1, outcome: 'SUCCESS' }, int)('handlerEndedAt'),
];

/** A valid notification rule body for `dto`: the create needs a name, the PUT body has none. */
const ruleBase = (dto: Ctor) =>
  dto === CreateNotificationRuleDto ? { kind: 'RECOVERY', name: 'r' } : { kind: 'RECOVERY' };

const EDGES: Edge[] = [
  ...WORKER_EDGES,
  ...TASK_FIELDS.map(([b, v, f]) => edge(b, SubmitTaskDto, TASK, v)(f ?? b)),
  ...JOB_FIELDS.flatMap(([b, v, f]) => [edge(b, CreateJobDto, JOB, v)(f ?? b), edge(b, UpdateJobDto, {}, v)(f ?? b)]),
  edge('tasks', SubmitTaskBatchDto, {}, items(TASK))('tasks'),
  edge('params', TriggerJobDto, {}, bytes)('params'),
  edge('priority', TriggerJobDto, {}, int)('priority'),
  ...(['fileName', 'content', 'timeZone'] as const).map((b) =>
    edge(b, ImportCrontabDto, { fileName: 'f', content: '' }, chars)(b),
  ),
  edge('mapUsers', ImportCrontabDto, { fileName: 'f', content: '' }, items('root'))('mapUsers'),
  edge('crontabUser', ImportCrontabDto, { fileName: 'f', content: '' }, (n) => [chars(n)])('mapUsers'),
  edge('callbackUrl', RegisterCallbackDto, { url: 'https://x' }, chars)('url'),
  edge('handler', RegisterCallbackDto, { url: 'https://x' }, chars)('handler'),
  edge('callbackHost', RedeliverHostDto, { since: '2026-12-01T00:00:00Z' }, (n) => `${chars(n - 2)}:1`)('host'),
  edge('triggerExpr', SchedulePreviewDto, { triggerExpr: '* * * * *' }, chars)('triggerExpr'),
  edge('timeZone', SchedulePreviewDto, { triggerExpr: '* * * * *' }, chars)('timeZone'),
  edge('previewCount', SchedulePreviewDto, { triggerExpr: '* * * * *' }, int)('count'),
  ...LISTS.flatMap((dto) => [query('offset', dto), query('limit', dto)]),
  ...[InstanceListQueryDto, AuditQueryDto, TaskListQueryDto, DeliveryListQueryDto, NotificationListQueryDto].map(
    (dto) => ({ ...query('cursor', dto), value: chars }),
  ),
  { ...query('jobId', AuditQueryDto), value: chars },
  ...[
    OwnerQueryDto,
    OwnerListQueryDto,
    InstanceListQueryDto,
    AuditQueryDto,
    CallbackOwnerQueryDto,
    CallbackHandlerQueryDto,
    LogQueryDto,
    JobListQueryDto,
    TaskListQueryDto,
    OverviewQueryDto,
    ScheduleLoadQueryDto,
    DeliveryListQueryDto,
    NotificationListQueryDto,
    CallbackHostListQueryDto,
  ].map((dto) => ({ ...query('appId', dto), value: chars })),
  { ...query('handler', CallbackHandlerQueryDto), value: chars },
  { ...query('handler', TaskListQueryDto), value: chars },
  { ...query('handler', NodeListQueryDto), value: chars },
  { ...query('q', JobListQueryDto), value: chars },
  query('hours', ScheduleLoadQueryDto),
  query('herd', ScheduleLoadQueryDto),
  query('logAfter', LogQueryDto, 'after'),
  query('logLimit', LogQueryDto, 'limit'),
  query('logAttempt', LogQueryDto, 'attempt'),
  ...CLIENT_LIMITS.flatMap((b) => [
    edge(b, CreateClientDto, { appId: 'app' }, int)(b),
    edge(b, UpdateClientDto, {}, int)(b),
  ]),
  edge('appId', CreateClientDto, {}, chars)('appId'),
  edge('ruleName', CreateNotificationRuleDto, { kind: 'RECOVERY' }, chars)('name'),
  ...(
    [
      ['quietMs', 'quietMs'],
      ['failureCount', 'count'],
      ['withinMs', 'withinMs'],
      ['thresholdMs', 'thresholdMs'],
    ] as const
  ).flatMap(([b, f]) =>
    [CreateNotificationRuleDto, NotificationRuleBodyDto].map((dto) => edge(b, dto, ruleBase(dto), int)(f)),
  ),
  ...(
    [
      ['code', 'jobCode'],
      ['handler', 'handler'],
      ['timeZone', 'timeZone'],
    ] as const
  ).flatMap(([b, f]) =>
    [CreateNotificationRuleDto, NotificationRuleBodyDto].map((dto) => edge(b, dto, ruleBase(dto), chars)(f)),
  ),
  ...([CreateClientDto, UpdateClientDto] as Ctor[]).flatMap((dto) => [
    edge('egressAllow', dto, dto === CreateClientDto ? { appId: 'app' } : {}, items('a.example'))('egressAllow'),
    edge('egressEntry', dto, dto === CreateClientDto ? { appId: 'app' } : {}, (n) => [chars(n)])('egressAllow'),
  ]),
];

const meta = (e: Edge): ArgumentMetadata => ({ type: e.query ? 'query' : 'body', metatype: e.dto as never, data: '' });
const bodyOf = (e: Edge, n: number) => ({ ...e.base, [e.field]: e.value(n) });
const name = (e: Edge) => `${e.dto.name}.${e.field}`;
/** The values just inside a bound and just outside it (a minimum only where the bound has one). */
const sides = (b: Bound) => ({
  inside: [b.max, ...(b.min !== undefined ? [b.min] : [])],
  outside: [b.max + 1, ...(b.min !== undefined ? [b.min - 1] : [])],
});

/** The answer of the pipe the app runs (the fast path first for task bodies), or the error it throws. */
const piped = (e: Edge, body: unknown) => createValidationPipe().transform(body, meta(e)).catch((err: Error) => err);
/** The class-validator answer alone (no fast path). */
const reference = (e: Edge, body: unknown) =>
  ValidationPipe.prototype.transform.call(createValidationPipe(), body, meta(e)).catch((err: Error) => err);

function expectRefused(got: unknown, field: string): void {
  expect(got).toBeInstanceOf(SchedulerError);
  expect(problemFields(got as SchedulerError)).toMatchObject({ status: 400, code: 'VALIDATION', field });
}

describe('BOUNDS at their edges', () => {
  it.each(EDGES.map((e) => [name(e), e.bound, e] as const))(
    'should accept %s at the bounds of %s and answer a 400 naming it one past them',
    async (_n, bound, e) => {
      const { inside, outside } = sides(BOUNDS[bound]);
      for (const n of inside) expect(await piped(e, bodyOf(e, n))).toBeInstanceOf(e.dto);
      for (const n of outside) expectRefused(await piped(e, bodyOf(e, n)), e.field);
    },
  );

  const taskEdges = EDGES.filter((e) => e.dto === SubmitTaskDto);
  it.each(taskEdges.map((e) => [e.field, e] as const))(
    'should take %s at its bounds through the fast path, and leave one past them to class-validator',
    async (_f, e) => {
      const { inside, outside } = sides(BOUNDS[e.bound]);
      for (const n of inside) {
        const body = bodyOf(e, n);
        expect(validTask(body)).toStrictEqual(await reference(e, body));
        const batch = { tasks: [body] };
        expect(validTaskBatch(batch)).toStrictEqual(await reference({ ...e, dto: SubmitTaskBatchDto }, batch));
      }
      for (const n of outside) {
        const body = bodyOf(e, n);
        expect(validTask(body)).toBeUndefined();
        expectRefused(await reference(e, body), e.field);
        const batch = { tasks: [TASK, body] };
        expect(validTaskBatch(batch)).toBeUndefined();
        expectRefused(await piped({ ...e, dto: SubmitTaskBatchDto }, batch), `tasks[1].${e.field}`);
      }
    },
  );

  it('should say the bound in the 400 of an integer past it (the messages read the table)', async () => {
    const e = taskEdges.find((t) => t.field === 'timeoutMs') as Edge;
    const got = (await piped(e, bodyOf(e, BOUNDS.timeoutMs.max + 1))) as SchedulerError;
    expect(got.message).toBe(`timeoutMs must not be greater than ${BOUNDS.timeoutMs.max}`);
  });

  it('should test every entry of the table at least once', () => {
    const tested = new Set(EDGES.map((e) => e.bound));
    expect(Object.keys(BOUNDS).filter((b) => !tested.has(b as BoundName))).toEqual([]);
  });

  it("should leave no numeric or length check of a request DTO outside the table's edges above", () => {
    const RANGED = ['min', 'max', 'maxLength', 'arrayMinSize', 'arrayMaxSize', 'maxJsonBytes'];
    const dtos = [...new Set(EDGES.map((e) => e.dto))];
    const untested = dtos.flatMap((dto) =>
      getMetadataStorage()
        .getTargetValidationMetadatas(dto, '', true, false)
        .filter((m) => RANGED.includes(m.name ?? '') || /\{\d+,\d+\}/.test(String(m.constraints?.[0])))
        .filter((m) => !EDGES.some((e) => e.dto === dto && e.field === m.propertyName))
        // A client's scopes: each at most once (ArrayUnique), so no more than there are scopes.
        .filter((m) => m.propertyName !== 'scopes')
        .map((m) => `${dto.name}.${m.propertyName} (${m.name})`),
    );
    expect(untested).toEqual([]);
  });
});
