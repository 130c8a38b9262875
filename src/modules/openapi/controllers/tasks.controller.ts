import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Response } from 'express';
import { MAX_BATCH_TASKS, type TraceContext } from '../../../common/index.js';
import { Tracing } from '../../tracing/index.js';
import { submitted, TRACEPARENT_HEADER, TraceParent } from './traceparent.js';
import { Scope } from '../../metadata/index.js';
import { CurrentCaller } from '../auth/caller.js';
import { RequireScope } from '../auth/scope.guard.js';
import { Signed } from '../auth/signed.decorator.js';
import { OwnerQueryDto } from '../dto/owner-query.dto.js';
import { ApiProblem } from '../dto/problem.dto.js';
import { RATE_LIMIT_HEADERS } from '../auth/signed.decorator.js';
import {
  SubmitTaskBatchDto,
  SubmitTaskDto,
  TaskAcceptedDto,
  TaskBatchAcceptedDto,
  TaskViewDto,
} from '../dto/task.dto.js';
import { MaxBodyItems } from '../filters/body-items.interceptor.js';
import { problemFields } from '../filters/problem-details.filter.js';
import { toTaskView } from '../views/instance-view.js';
import { CallbackRedeliver } from '../../callbacks/index.js';
import { type Caller, HandlerCheckService } from '../../jobs/index.js';
import { CallbackViewDto, NO_DELIVERY_409, REDELIVER_DESCRIPTION } from '../dto/callback.dto.js';
import { toCallbackView } from '../views/callback-view.js';
import { TasksService } from '../services/tasks.service.js';
import { HandlerLogsService } from '../services/handler-logs.service.js';
import { LOGS_DESCRIPTION, LogPageDto, LogQueryDto } from '../dto/log.dto.js';
import { cursorPage, decodeCursor, instantRange, pageOf } from '../dto/list.dto.js';
import { TaskListQueryDto, TaskPageDto } from '../dto/task-list.dto.js';
import { TaskListService } from '../services/task-list.service.js';

const CAP_429 =
  "Over the app's request rate limit (code RATE_LIMITED), or the app has as many unfinished tasks and fires as " +
  'its cap allows (code TOO_MANY_UNFINISHED; maxUnfinishedTasks, MAX_UNFINISHED_TASKS_PER_APP): nothing was ' +
  'written; retry after Retry-After seconds.';
const APP_ID_400 = 'A bad ?appId= (field appId: 3-64 of [A-Za-z0-9_.-]).';
const SHELL_NOTE =
  " A 'shell' task needs the shell scope (403, before anything is written); clustered, it is a 400 naming handler " +
  'while no live executor advertises shell.';
const LIST_DESCRIPTION =
  "The calling app's tasks (instances of no job) in this namespace; an admin's list holds every app's (or those " +
  'of ?appId=). Every filter given must hold; from/to bound createdAt and are inclusive. Items as GET of one task ' +
  "without its attempts. The app's rows are read from the (app_id, status) index and sorted by createdAt: the " +
  "cost grows with the app's retained instances (retention), not with the page.";
const ADMIN_APP =
  "No task of yours has this requestId (an admin names another app's task with ?appId=, in its namespace).";

/** The two shapes of a submit, as Swagger shows them. */
const SUBMIT_EXAMPLES = {
  canonical: {
    summary: 'The canonical shape',
    value: {
      requestId: 'order-42-sync',
      handler: 'http',
      params: { method: 'GET', url: 'http://reports.internal:8080/health' },
      delayMs: 0,
      callbackUrl: 'https://hooks.example.com/tickwheel',
    },
  },
  designSource: {
    summary: "The design source's shape (taskCode, taskName, triggerType, executeParams, delay)",
    value: {
      requestId: 'report-2026-11',
      taskCode: 'data_sync_report',
      taskName: '月度数据同步',
      triggerType: 'delay',
      delay: 60_000,
      executeParams: { month: '2026-11' },
      callbackUrl: 'https://hooks.example.com/tickwheel',
    },
  },
};

/** The asynchronous task API (docs/api.md). A task belongs to the app that submitted it. */
@ApiTags('tasks')
@Signed()
@Controller('api/tasks')
export class TasksController {
  constructor(
    private readonly tasks: TasksService,
    private readonly handlers: HandlerCheckService,
    private readonly callbacks: CallbackRedeliver,
    private readonly handlerLogs: HandlerLogsService,
    private readonly list: TaskListService,
    private readonly tracing: Tracing,
  ) {}

  @Get()
  @RequireScope(Scope.TASKS_READ)
  @ApiOperation({
    summary: 'Recent tasks, newest first (paged by cursor, or offset, and limit)',
    description: LIST_DESCRIPTION,
  })
  @ApiOkResponse({ type: TaskPageDto })
  @ApiProblem(
    400,
    'A bad query (status, handler, from, to, appId, offset, limit, cursor; `to` before `from`); `field` names it.',
  )
  async recent(@CurrentCaller() caller: Caller, @Query() q: TaskListQueryDto): Promise<TaskPageDto> {
    const { from, to } = instantRange(q);
    const at = q.cursor === undefined ? undefined : decodeCursor('t', q.cursor, /^[A-Za-z0-9-]{1,36}$/, q.offset);
    const { offset, limit } = pageOf(q);
    const filter = { status: q.status, handler: q.handler, from, to };
    const after = at && { createdAt: at.key, id: at.tie };
    const { rows, total } = await this.list.page(caller, q.appId, filter, { offset, limit: limit + 1, after });
    const { page, nextCursor } = cursorPage('t', rows, limit, (last) => ({ key: last.createdAt, tie: last.id }));
    const sent = await this.callbacks.deliveriesOf(page.map((i) => i.id));
    return { total, items: page.map((i) => toTaskView(i, undefined, undefined, sent.get(i.id))), nextCursor };
  }

  @Post()
  @HttpCode(202)
  @RequireScope(Scope.TASKS_WRITE)
  @ApiOperation({
    summary: 'Submit a task',
    description:
      'Answers at once with a requestId; the task runs on an executor that advertises its handler. Resending the ' +
      'same requestId with the same body answers the existing task as it is now, still a 202: its status (e.g. ' +
      'SUCCESS) and, once it has ended, its result and error (headers Idempotency-Replayed: true, as keyed ' +
      'routes answer, and the older Idempotent-Replayed: true, deprecated); with another ' +
      'body it is a 409. The body may also be in the design source\'s shape: taskCode (the handler), taskName, ' +
      "triggerType 'delay' (with delay, ms) or 'immediate', executeParams (the params), callbackUrl; the same checks " +
      'and bounds, stored and shown in the canonical shape plus taskName (docs/api.md "The design source\'s ' +
      'shape"). One body is one shape.' +
      SHELL_NOTE,
  })
  @ApiBody({ type: SubmitTaskDto, examples: SUBMIT_EXAMPLES })
  @ApiAcceptedResponse({ type: TaskAcceptedDto })
  @ApiProblem(
    400,
    'Invalid body (code VALIDATION; `field` names the part at fault as sent, e.g. handler, params.url, timeoutMs, ' +
      'or taskCode, executeParams.url, delay in the design source\'s shape; the two shapes mixed name the ' +
      'conflicting field), or no executor advertises the handler (field handler, or taskCode).',
  )
  @ApiProblem(409, 'requestId reused with a different body (field requestId).')
  @ApiProblem(429, CAP_429, RATE_LIMIT_HEADERS)
  @TRACEPARENT_HEADER
  async submit(
    @CurrentCaller() caller: Caller,
    @Body() dto: SubmitTaskDto,
    @Res({ passthrough: true }) res: Response,
    @TraceParent() parent: TraceContext | null,
  ): Promise<TaskAcceptedDto> {
    const start = Date.now();
    const { accepted, replayed, created } = await this.tasks.submit(caller, dto, parent);
    submitted(this.tracing, [created], parent, start);
    if (replayed) {
      res.setHeader('Idempotency-Replayed', 'true');
      res.setHeader('Idempotent-Replayed', 'true'); // the 0.1 name, kept for one release (CHANGELOG 0.2.0)
    }
    return accepted;
  }

  @Post('batch')
  @HttpCode(202)
  @RequireScope(Scope.TASKS_WRITE)
  @ApiOperation({
    summary: 'Submit up to 1000 tasks at once',
    description:
      'Each task is a POST /api/tasks body with its own requestId and the same idempotency: results[i] answers ' +
      'tasks[i] as POST /api/tasks would ' +
      '(`replayed: true` when the task existed already: then its status now, result and error once ended) or, ' +
      'when its requestId was used with another body, a per-item `error` (status 409); ' +
      'the request itself is still a 202. A requestId repeated inside the batch with the same body gets the same ' +
      'answer, with another body a 409 item. ' +
      'One invalid task, an empty list or more than 1000 tasks refuse the whole batch with a 400 naming the field ' +
      '(e.g. `tasks[3].handler`). ' +
      'The body may be at most 2 MiB. A shell task refuses the whole batch with a 403 unless the caller has the ' +
      'shell scope; a batch that would take ' +
      'the app past its cap on unfinished tasks is refused whole with a 429.',
  })
  @ApiAcceptedResponse({ type: TaskBatchAcceptedDto })
  @ApiProblem(
    400,
    'Invalid body; `field` names the task and its part at fault, e.g. `tasks[3].handler`, or `tasks` for a list ' +
      'of more than 1000.',
  )
  @ApiProblem(429, CAP_429, RATE_LIMIT_HEADERS)
  @MaxBodyItems({ tasks: MAX_BATCH_TASKS })
  @TRACEPARENT_HEADER
  async submitBatch(
    @CurrentCaller() caller: Caller,
    @Body() dto: SubmitTaskBatchDto,
    @TraceParent() parent: TraceContext | null,
  ): Promise<TaskBatchAcceptedDto> {
    const start = Date.now();
    const outcomes = await this.tasks.submitBatch(caller, dto.tasks, parent);
    submitted(this.tracing, outcomes.map((o) => ('error' in o ? null : o.created)), parent, start);
    return {
      results: outcomes.map((o) =>
        'error' in o
          ? { requestId: o.requestId, error: problemFields(o.error) }
          : { ...o.accepted, replayed: o.replayed },
      ),
    };
  }

  @Post(':requestId/cancel')
  @HttpCode(200)
  @RequireScope(Scope.TASKS_WRITE)
  @ApiOperation({
    summary: 'Cancel a task',
    description:
      'PENDING, WAITING, DISPATCHED or RUNNING → CANCELLED. A running handler sees its AbortSignal fire at once (a ' +
      'stop signal to its executor; its next heartbeat if that is lost); its late result is not recorded. Under ' +
      'maxConcurrency the next waiting instance starts once the handler stopped. A task that already ended is ' +
      'returned unchanged.',
  })
  @ApiOkResponse({ type: TaskViewDto, description: 'The task, CANCELLED (unchanged when it had ended).' })
  @ApiProblem(400, APP_ID_400)
  @ApiProblem(404, ADMIN_APP)
  async cancel(
    @CurrentCaller() caller: Caller,
    @Param('requestId') requestId: string,
    @Query() q: OwnerQueryDto,
  ): Promise<TaskViewDto> {
    const row = await this.tasks.cancel(caller, requestId, q.appId);
    return toTaskView(row, undefined, undefined, (await this.callbacks.deliveriesOf([row.id])).get(row.id));
  }

  @Post(':requestId/callback/redeliver')
  @HttpCode(202)
  @RequireScope(Scope.TASKS_WRITE)
  @ApiOperation({ summary: "Send the task's callback again", description: REDELIVER_DESCRIPTION })
  @ApiAcceptedResponse({ type: CallbackViewDto })
  @ApiProblem(400, APP_ID_400)
  @ApiProblem(404, ADMIN_APP)
  @ApiProblem(409, NO_DELIVERY_409)
  async redeliver(
    @CurrentCaller() caller: Caller,
    @Param('requestId') requestId: string,
    @Query() q: OwnerQueryDto,
  ): Promise<CallbackViewDto> {
    return toCallbackView(await this.callbacks.redeliver(caller, await this.tasks.get(caller, requestId, q.appId)));
  }

  @Get(':requestId')
  @RequireScope(Scope.TASKS_READ)
  @ApiOperation({
    summary: 'Task status',
    description:
      'Status, attempt, node, result or error, and timestamps of one of your tasks, with every attempt so far ' +
      '(node, fencing token, status, times, error), its callbackUrl and its callback delivery (`callback`: ' +
      'status PENDING, RETRYING, DELIVERED or CALLBACK_FAILED, attempts, last answer; null until it is final).',
  })
  @ApiOkResponse({ type: TaskViewDto })
  @ApiProblem(400, APP_ID_400)
  @ApiProblem(404, ADMIN_APP)
  async get(
    @CurrentCaller() caller: Caller,
    @Param('requestId') requestId: string,
    @Query() q: OwnerQueryDto,
  ): Promise<TaskViewDto> {
    const row = await this.tasks.get(caller, requestId, q.appId);
    const callback = (await this.callbacks.deliveriesOf([row.id])).get(row.id);
    return toTaskView(row, await this.tasks.attemptsOf(row.id), await this.handlers.waitingNote(row), callback);
  }

  @Get(':requestId/logs')
  @RequireScope(Scope.TASKS_READ)
  @ApiOperation({ summary: "The task's handler log lines, oldest first (paged)", description: LOGS_DESCRIPTION })
  @ApiOkResponse({ type: LogPageDto })
  @ApiProblem(400, 'A bad query (after, limit, attempt, appId); `field` names it.')
  @ApiProblem(404, ADMIN_APP)
  async logs(
    @CurrentCaller() caller: Caller,
    @Param('requestId') requestId: string,
    @Query() q: LogQueryDto,
  ): Promise<LogPageDto> {
    return this.handlerLogs.page((await this.tasks.get(caller, requestId, q.appId)).id, q);
  }
}
