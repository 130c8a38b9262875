import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import {
  assertHeartbeatTimeout,
  assertWithinMaxRunTime,
  BOUNDS,
  CLOCK,
  type Clock,
  ConflictError,
  NotFoundError,
  SchedulerError,
  type TraceContext,
  TimeoutMode,
} from '../../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { CancelService, DispatchService } from '../../dispatch/index.js';
import {
  CorruptJson,
  FINAL_STATUSES,
  JobAttempt,
  JobAttemptRepository,
  JobInstance,
  InstanceIntake,
  JobInstanceStatus,
  newJobInstance,
  RoutingStrategy,
  TriggerSource,
  withDbRetry,
} from '../../metadata/index.js';
import {
  AuditAction,
  AuditService,
  CallbackUrlCheck,
  type Caller,
  HandlerCheckService,
  namedApp,
  TaskCapService,
} from '../../jobs/index.js';
import { SubmitTaskDto, TaskAcceptedDto } from '../dto/task.dto.js';
import { canonicalTask, namedAsSent, type TaskBody } from '../dto/task-shape.js';
import { SubmitCoalescer } from './submit-coalescer.js';

const DEFAULT_TIMEOUT_MS = BOUNDS.timeoutMs.default;
/** Most single submits written in one group; 500 rows are one INSERT statement (see insertIgnore). */
const MAX_SUBMIT_GROUP = 500;
/**
 * Group writes of one app's single submits under way at once, and how long the youngest must have run before
 * another starts beside it (ms): a stalled write then holds its own group only (docs/api.md "Idempotency and submits").
 * 50, not 10: a CPU-bound api's writes all run past 10 ms, and halved groups cost p99 (bench/README "Issue 28").
 */
const SUBMIT_WRITES = { maxWrites: 2, overlapAfterMs: 50 };
/** Back-off spent retrying a task write through transient database errors before its callers get a 500. */
const INSERT_RETRY_MS = 1_000;

/** Outcome of a submit: the answer, and whether it replays an earlier identical request. */
export interface SubmitResult {
  accepted: TaskAcceptedDto;
  replayed: boolean;
  /** The row this submit wrote; null on a replay. */
  created: JobInstance | null;
}

/** Outcome of one task of a batch: its answer, or why it was refused (a ConflictError). */
export type BatchItemOutcome = SubmitResult | { requestId: string; error: SchedulerError };

/** A task row after its write: the row stored under its requestId, and who wrote it. */
interface StoredTask {
  instance: JobInstance;
  /** This write inserted `instance`. */
  created: boolean;
  /** The row was the first of its requestId in the write (a later one was judged against it). */
  first: boolean;
}

/**
 * The async task API (docs/api.md): submit answers at once, the row committed before the answer; the
 * unique (app_id, request_id) key makes a retried or concurrent identical submit return the first answer
 * and a reused id with a different body (or of another namespace) a 409. Dispatch after the commit is best
 * effort: if it fails the row is PENDING and the leader's reconciler dispatches it. Tasks belong to the app that
 * submitted them, in this namespace only; an admin reads and cancels any app's tasks of its namespace (`appId`).
 * A submit past the app's cap on unfinished tasks is refused with a 429 (TaskCapService).
 */
@Injectable()
export class TasksService {
  private readonly logger = new Logger(TasksService.name);
  /** Groups concurrent single submits per app into one {@link store} call. */
  private readonly singles = new SubmitCoalescer<JobInstance, StoredTask>((_appId, rows) => this.store(rows), {
    maxGroup: MAX_SUBMIT_GROUP,
    ...SUBMIT_WRITES,
  });

  constructor(
    private readonly instances: InstanceIntake,
    private readonly attempts: JobAttemptRepository,
    private readonly dispatch: DispatchService,
    private readonly cancels: CancelService,
    private readonly handlers: HandlerCheckService,
    private readonly callbackUrls: CallbackUrlCheck,
    private readonly caps: TaskCapService,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * One task (docs/api.md), answered once its row is committed. Concurrent submits of one app are written
   * together ({@link SubmitCoalescer}, {@link store}): a submit that arrives while a write of its app runs
   * goes in the next group, which starts when that write ends or once it has run SUBMIT_WRITES.overlapAfterMs
   * (two writes at most), so a lone submit waits for no company (no timer) and a busy API makes one write per
   * group instead of one per task. Of two submits with one requestId in a group the later is judged against
   * the earlier, as if it came after it: a replay, or a 409. In two overlapping groups the unique key decides:
   * the write that inserts first creates the task, the other finds its row ({@link store}) and is judged so.
   * @throws ConflictError when `requestId` was used by this app with another body, or in another namespace.
   * @throws ForbiddenError (shell without the scope), TooManyUnfinishedError (the app's cap), ValidationError (also
   * a refused callbackUrl, CallbackUrlCheck).
   * @throws the group's write error (a 500) for every submit of a group whose write failed.
   * `parent`: the caller's trace context (its `traceparent`), which the task joins as a child span.
   */
  async submit(caller: Caller, sentBody: SubmitTaskDto, parent: TraceContext | null = null): Promise<SubmitResult> {
    const { body: dto, sent } = canonicalTask(sentBody);
    await namedAsSent(
      () => sent,
      async () => {
        assertTaskTimeouts(dto, this.config.longTasks.maxRunTimeMs);
        this.handlers.assertMayUse(caller, dto.handler, sent.handler);
        await this.handlers.assertRunnable(dto.handler, caller.appId, sent.handler);
        this.handlers.checkParams(dto.handler, dto.params ?? {});
      },
    );
    if (dto.callbackUrl !== undefined) await this.callbackUrls.assert(caller.appId, dto.callbackUrl);
    await this.caps.admit(caller, 1);
    const row = this.newTaskRow(caller.appId, dto, this.clock.now(), parent);
    const { instance, created, first } = await this.singles.submit(caller.appId, row);
    const outcome = judge(row, instance, created && first);
    if (outcome instanceof ConflictError) throw outcome;
    return outcome;
  }

  /**
   * Submits 1..1000 tasks with the rules of {@link submit} per task, answered in input order. The rows are
   * written by multi-row INSERT IGNORE statements ({@link store}) and the new ones dispatched in one call. Each row is
   * committed before the answer; if the request fails half way, the rows written stay PENDING and run, and
   * resending the batch replays them. A requestId seen earlier in the batch is judged against that earlier
   * task: the same body gets the same answer, another body a conflict for that item only.
   * @throws ValidationError(`tasks[i].handler`) standalone, for a handler this process does not have.
   * @throws ForbiddenError for a shell task without the scope, TooManyUnfinishedError: nothing is written.
   */
  async submitBatch(
    caller: Caller,
    sentTasks: SubmitTaskDto[],
    parent: TraceContext | null = null,
  ): Promise<BatchItemOutcome[]> {
    const shapes = sentTasks.map((t, i) => canonicalTask(t, `tasks[${i}].`));
    const tasks = shapes.map((s) => s.body);
    tasks.forEach((t, i) => assertTaskTimeouts(t, this.config.longTasks.maxRunTimeMs, `tasks[${i}].`));
    await namedAsSent(
      (i) => (i === undefined ? shapes[0].sent : shapes[i].sent),
      () => this.assertHandlers(caller, tasks),
    );
    const urls = tasks.flatMap((t, i) =>
      t.callbackUrl === undefined ? [] : [{ url: t.callbackUrl, field: `tasks[${i}].callbackUrl` }],
    );
    await this.callbackUrls.assertAll(caller.appId, urls);
    await this.caps.admit(caller, tasks.length);
    const now = this.clock.now();
    const rows = tasks.map((t) => this.newTaskRow(caller.appId, t, now, parent));
    const stored = await this.store(rows);
    return rows.map((row, i) => {
      const outcome = judge(row, stored[i].instance, stored[i].created);
      return outcome instanceof ConflictError ? { requestId: row.requestId, error: outcome } : outcome;
    });
  }

  /**
   * Writes task rows of one app and answers, per row, the row stored under its requestId, whether this
   * call created it, and whether `row` is the first of its requestId here (later ones were not written but
   * answered with the first's row). The first of each requestId is routed ({@link preRoute}) and inserted
   * — one INSERT for a lone row, else insertOrGetMany (multi-row INSERT IGNORE, then a SELECT of ids),
   * again after a deadlock or a lost connection for up to INSERT_RETRY_MS (both are safe to repeat) — and
   * the created rows are dispatched; all before it returns, so every row it answers is committed.
   * @throws the database's error when the write fails (some rows may be committed: a resend replays them).
   */
  private async store(rows: JobInstance[]): Promise<StoredTask[]> {
    const firsts = new Map<string, JobInstance>();
    for (const row of rows) if (!firsts.has(row.requestId)) firsts.set(row.requestId, row);
    const unique = [...firsts.values()];
    await this.preRoute(unique);
    const insert = async () =>
      unique.length === 1 ? [await this.instances.insertOrGet(unique[0])] : this.instances.insertOrGetMany(unique);
    const written = await withDbRetry(insert, INSERT_RETRY_MS, { elapsed: true });
    // Created = the stored row is this write's own (its id), also when a retry found what the lost try wrote.
    const byRequest = new Map(
      unique.map((row, i) => [
        row.requestId,
        { instance: written[i].instance, created: written[i].instance.id === row.id },
      ]),
    );
    const created = [...byRequest.values()].filter((s) => s.created).map((s) => s.instance);
    if (created.length > 0) await this.dispatchNew(created);
    return rows.map((row) => ({
      ...(byRequest.get(row.requestId) as Omit<StoredTask, 'first'>),
      first: firsts.get(row.requestId) === row,
    }));
  }

  /** The unwritten row of a submitted task; `requestHash` covers the whole body except the requestId. */
  private newTaskRow(appId: string, dto: TaskBody, now: number, parentTrace: TraceContext | null): JobInstance {
    const { requestId, ...rest } = dto;
    return newJobInstance(
      {
        namespace: this.config.namespace,
        appId,
        requestId,
        requestHash: hashBody(rest),
        handler: dto.handler,
        fireTime: now,
        triggerSource: TriggerSource.API,
        maxAttempts: dto.maxAttempts,
        retryBackoffMs: dto.retryBackoffMs,
        retryBackoffKind: dto.retryBackoffKind,
        timeoutMs: dto.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        heartbeatTimeoutMs: dto.heartbeatTimeoutMs ?? BOUNDS.heartbeatTimeoutMs.default,
        priority: dto.priority ?? BOUNDS.priority.default,
        timeoutMode: dto.timeoutMode ?? TimeoutMode.HARD,
        // A task with a routing key goes by key (CONSISTENT_HASH: same key, same node); others round robin.
        routingKey: dto.routingKey,
        routingStrategy: dto.routingKey ? RoutingStrategy.CONSISTENT_HASH : RoutingStrategy.ROUND_ROBIN,
        params: dto.params ?? {},
        dueAt: now + (dto.delayMs ?? BOUNDS.delayMs.default),
        callbackUrl: dto.callbackUrl ?? null,
        parentTrace,
        taskName: dto.taskName ?? null,
      },
      now,
    );
  }

  /**
   * The scope and handler checks, once per distinct handler, naming the first task that uses it; then each
   * task's built-in params.
   */
  private async assertHandlers(caller: Caller, tasks: TaskBody[]): Promise<void> {
    const first = new Map<string, number>();
    tasks.forEach((t, i) => {
      if (!first.has(t.handler)) first.set(t.handler, i);
    });
    for (const [handler, i] of first) this.handlers.assertMayUse(caller, handler, `tasks[${i}].handler`);
    for (const [handler, i] of first) await this.handlers.assertRunnable(handler, caller.appId, `tasks[${i}].handler`);
    tasks.forEach((t, i) => this.handlers.checkParams(t.handler, t.params ?? {}, `tasks[${i}].`));
  }

  /**
   * Routes the tasks due now before their rows are written, so a row is inserted already DISPATCHED to
   * its executor and only the push of its id is left after the commit (no UPDATE per task; the same
   * path as staged fires, DispatchService.preRoute). Best effort: a row it could not route is written
   * PENDING and dispatched as before. A replayed requestId only advanced a round-robin counter.
   */
  private async preRoute(rows: JobInstance[]): Promise<void> {
    const now = this.clock.now();
    await this.dispatch
      .preRoute(rows.filter((r) => r.dueAt <= now))
      .catch((err: Error) =>
        this.logger.warn(`routing of ${rows.length} task(s) before insert failed, dispatched after it: ${err.message}`),
      );
  }

  /**
   * Hands new rows to executors: pre-routed (DISPATCHED) ones by a push of their ids, the rest (delayed,
   * or no executor yet) through dispatch. Best effort: rows left behind by a failure here are pushed or
   * dispatched by the leader's reconciler.
   */
  private async dispatchNew(rows: JobInstance[]): Promise<void> {
    const routed = rows.filter((r) => r.status === JobInstanceStatus.DISPATCHED);
    const pending = rows.filter((r) => r.status !== JobInstanceStatus.DISPATCHED);
    await Promise.all([
      routed.length > 0
        ? this.dispatch.deliver(
            routed.map((r) => ({ id: r.id, appId: r.appId, at: r.dueAt, priority: r.priority, nodeId: r.nodeId })),
          )
        : undefined,
      pending.length > 0 ? this.dispatch.dispatchRows(pending) : undefined,
    ]).catch((err: Error) =>
      this.logger.warn(`dispatch of ${rows.length} new task(s) deferred to the reconciler: ${err.message}`),
    );
  }

  /**
   * Cancels a task of the caller's app, or of app `appId` for an admin (any unfinished status; a running
   * handler's signal aborts at once, see CancelService), with its audit row in the cancel's transaction.
   * Cancelling a task that already ended changes nothing and returns it as it is.
   * @throws NotFoundError when the app has no task with `requestId`; ForbiddenError(admin) for another app.
   */
  async cancel(caller: Caller, requestId: string, appId?: string): Promise<JobInstance> {
    const row = await this.get(caller, requestId, appId);
    await this.cancels.cancel(row, `cancelled by ${caller.appId}`, (em, was) =>
      this.audit.record(
        em,
        caller.appId,
        AuditAction.TASK_CANCEL,
        { type: 'task', id: was.id },
        { appId: was.appId, requestId: was.requestId, status: was.status },
        { status: JobInstanceStatus.CANCELLED },
      ),
    );
    return this.get(caller, requestId, appId);
  }

  /** The attempts of instance `instanceId`, oldest first (job_attempt). */
  attemptsOf(instanceId: string): Promise<JobAttempt[]> {
    return this.attempts.listForInstance(instanceId);
  }

  /**
   * The task `requestId` of this namespace of the caller's app, or of app `appId` for an admin. A task of another
   * namespace is not found, as jobs, audit and lists are not (docs/tenancy.md): requestIds are unique per app
   * across namespaces, so the read by (app_id, request_id) finds it, and the namespace is checked on the row.
   * @throws NotFoundError when there is none; ForbiddenError(admin) for another app without `admin`.
   */
  async get(caller: Caller, requestId: string, appId?: string): Promise<JobInstance> {
    const owner = namedApp(caller, appId) as string;
    const row = await this.instances.findByRequest(owner, requestId);
    if (!row || row.namespace !== this.config.namespace) throw new NotFoundError('task', requestId);
    return row;
  }
}

/**
 * The answer to a submit of `row`, given the row stored under its requestId (`row` itself when `created`): when
 * the bodies hash alike and it is of this namespace, PENDING for a new task and, for a replay, the existing task as
 * it is now (the design source: an existing requestId returns the existing record): its status and, once final,
 * its result and error as GET shows them; else a conflict.
 */
function judge(row: JobInstance, stored: JobInstance, created: boolean): SubmitResult | ConflictError {
  // requestIds are unique per app, not per namespace: a replay here would answer a task no route of it can see
  if (stored.namespace !== row.namespace)
    return new ConflictError(`requestId '${stored.requestId}' was already used in another namespace`, 'requestId');
  if (stored.requestHash !== row.requestHash)
    return new ConflictError(`requestId '${stored.requestId}' was already used with a different body`, 'requestId');
  const accepted: TaskAcceptedDto = {
    requestId: stored.requestId,
    status: created ? JobInstanceStatus.PENDING : stored.status,
    estimatedDelay: Math.max(0, stored.dueAt - stored.createdAt),
  };
  if (!created && FINAL_STATUSES.has(stored.status)) {
    accepted.result = stored.result instanceof CorruptJson ? null : (stored.result ?? null);
    accepted.error = stored.error;
  }
  return { accepted, replayed: !created, created: created ? stored : null };
}

/** SHA-256 of the body with keys sorted at every level, so key order never makes two bodies differ. */
export function hashBody(body: unknown): string {
  return createHash('sha256').update(stableJson(body)).digest('hex');
}

function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/**
 * A task's timeouts (docs/long-tasks.md): a timeoutMs it sent within `maxRunTimeMs` (MAX_RUN_TIME_MS), a heartbeat
 * timeout that fits its mode. @throws ValidationError naming `<prefix>timeoutMs` or `<prefix>heartbeatTimeoutMs`.
 */
function assertTaskTimeouts(dto: TaskBody, maxRunTimeMs: number, prefix = ''): void {
  assertWithinMaxRunTime(dto.timeoutMs, maxRunTimeMs, `${prefix}timeoutMs`);
  const timeouts = {
    timeoutMode: dto.timeoutMode ?? TimeoutMode.HARD,
    timeoutMs: dto.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    heartbeatTimeoutMs: dto.heartbeatTimeoutMs ?? BOUNDS.heartbeatTimeoutMs.default,
  };
  assertHeartbeatTimeout(timeouts, maxRunTimeMs, `${prefix}heartbeatTimeoutMs`);
}
