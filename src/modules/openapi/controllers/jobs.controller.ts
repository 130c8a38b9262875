import { applyDecorators, Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { MAX_SHARDS, type TraceContext } from '../../../common/index.js';
import { Tracing } from '../../tracing/index.js';
import { submitted, TRACEPARENT_HEADER, TraceParent } from './traceparent.js';
import { CallbackRedeliver } from '../../callbacks/index.js';
import {
  type Caller,
  CrontabImportService,
  HandlerCheckService,
  type JobRef,
  JobRunsService,
  JobsService,
} from '../../jobs/index.js';
import { Scope } from '../../metadata/index.js';
import { CurrentCaller } from '../auth/caller.js';
import { RequireScope } from '../auth/scope.guard.js';
import { Signed } from '../auth/signed.decorator.js';
import {
  BackfillDto,
  BackfillResultDto,
  CreateJobDto,
  CrontabImportResultDto,
  ImportCrontabDto,
  TriggerJobDto,
  UpdateJobDto,
} from '../dto/job.dto.js';
import { CallbackViewDto, NO_DELIVERY_409, REDELIVER_DESCRIPTION } from '../dto/callback.dto.js';
import { JobPageDto, JobViewDto } from '../dto/job-view.dto.js';
import { ApiProblem } from '../dto/problem.dto.js';
import { RATE_LIMIT_HEADERS } from '../auth/signed.decorator.js';
import { InstanceListQueryDto, JobListQueryDto, OwnerQueryDto } from '../dto/owner-query.dto.js';
import { cursorPage, decodeCursor, InstancePageDto, pageOf } from '../dto/list.dto.js';
import { TaskViewDto, TriggerViewDto } from '../dto/task.dto.js';
import { MaxBodyItems } from '../filters/body-items.interceptor.js';
import { LOGS_DESCRIPTION, LogPageDto, LogQueryDto } from '../dto/log.dto.js';
import { HandlerLogsService } from '../services/handler-logs.service.js';
import { JobViews } from '../services/job-views.service.js';
import { toCallbackView } from '../views/callback-view.js';
import { toTaskView } from '../views/instance-view.js';

const NOT_YOURS =
  "No such job of yours (another app's job is a 404 too; an admin sees every app's jobs of its namespace).";
const SHELL_403 =
  "A 403 when the caller lacks the route's scope, or when the job's handler is 'shell' and it lacks the shell scope.";
const CAP_429 =
  " A 429 (code TOO_MANY_UNFINISHED) when the instances would take the job owner's app past its cap on unfinished " +
  'tasks and fires (maxUnfinishedTasks, MAX_UNFINISHED_TASKS_PER_APP; every shard counts): nothing was written; ' +
  'retry after Retry-After seconds.';
const CREATE_DESCRIPTION =
  "The job belongs to the calling app. A 'shell' job needs the shell scope (403); at the app's job cap " +
  '(maxJobs, MAX_JOBS_PER_APP) the answer is a 409 naming maxJobs; with metrics true while JOB_METRICS_MAX jobs of ' +
  'the namespace have it on, a 409 naming metrics.';
const IMPORT_DESCRIPTION =
  "Each entry becomes a 'shell' job <fileName>-L<line> of the calling app (which needs the shell scope too); " +
  'lines that are not jobs are listed with the reason (the first 100, each cut; rejectedTotal counts them all). ' +
  'Jobs are created paused unless enable=true; a line naming a user not in mapUsers (root: the command runs as ' +
  "the app's shell uid, never as that user) stays paused with pausedReason CRONTAB_USER, listed in pausedForUser. " +
  'Importing the same file again updates the same jobs of the same ' +
  "app; another app's import creates its own. All entries are written in one transaction.";
const TRIGGER_SUMMARY =
  'Run the job once now (MANUAL instance), paused or not, under its overlap policy (SKIP answers a CANCELLED ' +
  'instance, QUEUE a WAITING one, REPLACE cancels the unfinished ones)';
const BACKFILL_DESCRIPTION =
  'One BACKFILL instance per scheduled time in [from, to] (at most 1000 fires and 10,000 instances with the ' +
  "shards; to may not be in the future) that has no instance yet, under the job's overlap policy. Times that " +
  'already ran are left alone, so repeating a backfill creates nothing new. ' +
  SHELL_403 +
  CAP_429 +
  ' Every planned fire counts, times that already ran too. With dryRun: true the answer is the same (created: the ' +
  'fires that would be created) and nothing is written.';
const INSTANCE_DESCRIPTION =
  'As GET /api/tasks/{requestId}, for a fire of the job (its instanceId is in the trigger-now answer and the ' +
  'instance list).';

const AMBIGUOUS =
  'An admin named a code that several apps have (field appId): name the job by id, or add ?appId=.';
const APP_ID_400 = 'A bad ?appId= (field appId: 3-64 of [A-Za-z0-9_.-]).';
const INSTANCE_404 = `${NOT_YOURS} Or the instance is not one of its.`;
const RATE_OR_CAP_429 =
  "Over the app's request rate limit (code RATE_LIMITED), or the job owner's cap on unfinished tasks and fires " +
  '(code TOO_MANY_UNFINISHED, nothing was written).';

/**
 * The answers of a route naming one job by `{id}` and `?appId=`: 400 (appId, or `bad` when given), 404, 409.
 * `conflict` replaces the 409's description when the route has other conflicts too.
 */
const NamedJob = (bad = APP_ID_400, notFound = NOT_YOURS, conflict = AMBIGUOUS) =>
  applyDecorators(ApiProblem(400, bad), ApiProblem(404, notFound), ApiProblem(409, conflict));

/** The job a route names: `{id}` (id or code) and `?appId=`. */
const ref = (id: string, q: OwnerQueryDto): JobRef => ({ idOrCode: id, appId: q.appId });

/**
 * Job definitions (docs/api.md `/api/jobs`, README "Tenancy and scopes"). `{id}` is the job's id or its
 * code. A job belongs to the app that created it: another app gets 404 for it on every route; an admin
 * sees and manages every app's jobs of its namespace (`?appId=` names the owner). Each route maps its DTO
 * to one call of the jobs domain and the answer to a view.
 */
@ApiTags('jobs')
@Signed()
@Controller('api/jobs')
export class JobsController {
  constructor(
    private readonly jobs: JobsService,
    private readonly runs: JobRunsService,
    private readonly importer: CrontabImportService,
    private readonly handlers: HandlerCheckService,
    private readonly callbacks: CallbackRedeliver,
    private readonly handlerLogs: HandlerLogsService,
    private readonly views: JobViews,
    private readonly tracing: Tracing,
  ) {}

  @Post()
  @RequireScope(Scope.JOBS_WRITE)
  @ApiOperation({ summary: 'Create a job definition', description: CREATE_DESCRIPTION })
  @ApiCreatedResponse({ type: JobViewDto })
  @ApiProblem(
    400,
    'Invalid definition (code VALIDATION; `field` names the part at fault, e.g. triggerExpr for a bad cron ' +
      'expression, timeZone for an unknown zone, callbackUrl for a refused URL), or its handler cannot run here ' +
      '(field handler).',
  )
  @ApiProblem(
    409,
    'The app already has a job of this code (field code), owns as many jobs as its cap allows (field maxJobs), or ' +
      'JOB_METRICS_MAX jobs of the namespace have metrics on (field metrics).',
  )
  @MaxBodyItems({ shardParams: MAX_SHARDS })
  async create(@CurrentCaller() caller: Caller, @Body() dto: CreateJobDto): Promise<JobViewDto> {
    return this.view(await this.jobs.create(caller, dto));
  }

  @Get()
  @RequireScope(Scope.JOBS_READ)
  @ApiOperation({
    summary: 'List job definitions (by code, then owner)',
    description:
      "The calling app's jobs; an admin's list holds every app's jobs of the namespace (or those of ?appId=). " +
      '`q` keeps those whose code, description or handler contains it (any case), `enabled` the enabled or paused ' +
      'ones. Each item as GET of one job, with `lastRun` (one read for the page). An app\'s page is read in code ' +
      'order from the (namespace, app_id, code) index.',
  })
  @ApiOkResponse({ type: JobPageDto })
  @ApiProblem(400, 'A bad query (offset, limit, appId, q or enabled); `field` names it.')
  async list(@CurrentCaller() caller: Caller, @Query() q: JobListQueryDto): Promise<JobPageDto> {
    const { offset, limit } = pageOf(q);
    const enabled = q.enabled === undefined ? undefined : q.enabled === 'true';
    const [items, total] = await this.jobs.list(caller, q.appId, offset, limit, { q: q.q, enabled });
    return { total, items: await this.views.page(items) };
  }

  @Post('import-crontab')
  @HttpCode(200)
  @RequireScope(Scope.JOBS_WRITE)
  @ApiOperation({ summary: 'Import a cron.d file', description: IMPORT_DESCRIPTION })
  @ApiOkResponse({ type: CrontabImportResultDto })
  @ApiProblem(
    400,
    'Invalid body (`field` names it: fileName, content, timeZone, enable, mapUsers), more entries than one ' +
      'import takes (field content), or, with enable=true, no executor runs shell (field handler).',
  )
  @ApiProblem(409, 'Another write changed one of these jobs meanwhile: send the import again.')
  async importCrontab(@CurrentCaller() caller: Caller, @Body() dto: ImportCrontabDto): Promise<CrontabImportResultDto> {
    return this.importer.import(caller, dto);
  }

  @Get(':id')
  @RequireScope(Scope.JOBS_READ)
  @ApiOperation({ summary: 'Read a job definition with its next 5 fire times and its last run' })
  @ApiOkResponse({ type: JobViewDto })
  @NamedJob()
  async get(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query() q: OwnerQueryDto): Promise<JobViewDto> {
    return this.view(await this.jobs.find(caller, ref(id, q)));
  }

  @Patch(':id')
  @RequireScope(Scope.JOBS_WRITE)
  @ApiOperation({ summary: 'Change a job definition (any subset of fields)', description: SHELL_403 })
  @ApiOkResponse({ type: JobViewDto })
  @NamedJob(
    'Invalid change (`field` names it, e.g. triggerExpr, timeZone, shardTotal past JOB_MAX_INSTANCES_PER_MINUTE, ' +
      'a null for a field that cannot be null), or a bad ?appId=.',
    NOT_YOURS,
    `${AMBIGUOUS} Or the new code is taken (field code), metrics true while JOB_METRICS_MAX jobs of the namespace ` +
      'have it on (field metrics), or another write changed the job meanwhile.',
  )
  @MaxBodyItems({ shardParams: MAX_SHARDS })
  async update(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Query() q: OwnerQueryDto,
    @Body() dto: UpdateJobDto,
  ): Promise<JobViewDto> {
    return this.view(await this.jobs.update(caller, ref(id, q), dto));
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScope(Scope.JOBS_WRITE)
  @ApiOperation({ summary: 'Delete a job definition (its instances stay as history)' })
  @ApiNoContentResponse({ description: 'Deleted; no body.' })
  @NamedJob()
  async remove(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query() q: OwnerQueryDto): Promise<void> {
    await this.jobs.remove(caller, ref(id, q));
  }

  @Post(':id/pause')
  @HttpCode(200)
  @RequireScope(Scope.JOBS_WRITE)
  @ApiOperation({ summary: 'Pause the schedule' })
  @ApiOkResponse({ type: JobViewDto, description: 'The job, paused (enabled false); unchanged when it was paused.' })
  @NamedJob()
  async pause(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Query() q: OwnerQueryDto,
  ): Promise<JobViewDto> {
    return this.view(await this.jobs.pause(caller, ref(id, q)));
  }

  @Post(':id/resume')
  @HttpCode(200)
  @RequireScope(Scope.JOBS_WRITE)
  @ApiOperation({ summary: 'Resume the schedule from now', description: SHELL_403 })
  @ApiOkResponse({ type: JobViewDto, description: 'The job, enabled, with its next fire times from now.' })
  @NamedJob(
    'The schedule cannot fire (field triggerExpr: e.g. a ONE_SHOT instant in the past, or past ' +
      'JOB_MAX_INSTANCES_PER_MINUTE), no executor runs its handler (field handler), or a bad ?appId=.',
    NOT_YOURS,
    `${AMBIGUOUS} Or the job is a ONE_SHOT that made its fire (field enabled): PATCH a new triggerExpr.`,
  )
  async resume(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Query() q: OwnerQueryDto,
  ): Promise<JobViewDto> {
    return this.view(await this.jobs.resume(caller, ref(id, q)));
  }

  @Post(':id/trigger')
  @HttpCode(202)
  @RequireScope(Scope.JOBS_WRITE)
  @ApiOperation({
    summary: TRIGGER_SUMMARY,
    description: `The instance runs under the job owner's app id. ${SHELL_403}${CAP_429}`,
  })
  @ApiAcceptedResponse({
    type: TriggerViewDto,
    description: 'The new instance (shard 0 of a sharded job, with every shard under `shards`).',
  })
  @NamedJob('Invalid params (field params), no executor runs its handler (field handler), or a bad ?appId=.')
  @ApiProblem(429, RATE_OR_CAP_429, RATE_LIMIT_HEADERS)
  @TRACEPARENT_HEADER
  async trigger(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Query() q: OwnerQueryDto,
    @Body() dto: TriggerJobDto,
    @TraceParent() parent: TraceContext | null,
  ): Promise<TriggerViewDto> {
    const start = Date.now();
    const [first, ...others] = await this.runs.triggerNow(caller, ref(id, q), dto.params, dto.priority, parent);
    submitted(this.tracing, [first, ...others], parent, start);
    // A fire inserted CANCELLED (overlap SKIP) has its delivery already.
    const sent = await this.callbacks.deliveriesOf([first, ...others].map((i) => i.id));
    const view = (i: (typeof others)[number]) => toTaskView(i, undefined, undefined, sent.get(i.id));
    const shards = others.length > 0 ? { shards: [first, ...others].map(view) } : {};
    return { ...view(first), ...shards };
  }

  @Post(':id/backfill')
  @HttpCode(200)
  @RequireScope(Scope.JOBS_WRITE)
  @ApiOperation({ summary: 'Fire the job for every scheduled time of a past range', description: BACKFILL_DESCRIPTION })
  @ApiOkResponse({ type: BackfillResultDto })
  @NamedJob(
    'A bad range (field from or to: not ISO-8601, to before from, to in the future, more than 1000 fires or ' +
      '10,000 instances), no executor runs its handler (field handler), or a bad ?appId=.',
  )
  @ApiProblem(429, RATE_OR_CAP_429, RATE_LIMIT_HEADERS)
  async backfill(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Query() q: OwnerQueryDto,
    @Body() dto: BackfillDto,
  ): Promise<BackfillResultDto> {
    const out = await this.runs.backfill(caller, ref(id, q), Date.parse(dto.from), Date.parse(dto.to), dto.dryRun);
    return {
      created: out.created,
      existing: out.existing,
      fireTimes: out.fireTimes.map((t) => new Date(t).toISOString()),
    };
  }

  @Post(':id/instances/:instanceId/cancel')
  @HttpCode(200)
  @RequireScope(Scope.JOBS_WRITE)
  @ApiOperation({ summary: 'Cancel one instance of the job', description: 'As POST /api/tasks/{requestId}/cancel.' })
  @ApiOkResponse({ type: TaskViewDto, description: 'The instance, CANCELLED (unchanged when it had ended).' })
  @NamedJob(APP_ID_400, INSTANCE_404)
  async cancelInstance(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('instanceId') instanceId: string,
    @Query() q: OwnerQueryDto,
  ): Promise<TaskViewDto> {
    const row = await this.runs.cancelInstance(caller, ref(id, q), instanceId);
    return toTaskView(row, undefined, undefined, (await this.callbacks.deliveriesOf([row.id])).get(row.id));
  }

  @Post(':id/instances/:instanceId/callback/redeliver')
  @HttpCode(202)
  @RequireScope(Scope.JOBS_WRITE)
  @ApiOperation({ summary: "Send one instance's callback again", description: REDELIVER_DESCRIPTION })
  @ApiAcceptedResponse({ type: CallbackViewDto })
  @NamedJob(APP_ID_400, INSTANCE_404, `${NO_DELIVERY_409} Or: ${AMBIGUOUS}`)
  async redeliverInstance(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('instanceId') instanceId: string,
    @Query() q: OwnerQueryDto,
  ): Promise<CallbackViewDto> {
    const { instance } = await this.runs.instanceOf(caller, ref(id, q), instanceId);
    return toCallbackView(await this.callbacks.redeliver(caller, instance));
  }

  @Get(':id/instances/:instanceId/logs')
  @RequireScope(Scope.JOBS_READ)
  @ApiOperation({ summary: "One instance's handler log lines, oldest first (paged)", description: LOGS_DESCRIPTION })
  @ApiOkResponse({ type: LogPageDto })
  @NamedJob('A bad query (after, limit, attempt, appId); `field` names it.', INSTANCE_404)
  async instanceLogs(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('instanceId') instanceId: string,
    @Query() q: LogQueryDto,
  ): Promise<LogPageDto> {
    const { instance } = await this.runs.instanceOf(caller, ref(id, q), instanceId);
    return this.handlerLogs.page(instance.id, q);
  }

  @Get(':id/instances/:instanceId')
  @RequireScope(Scope.JOBS_READ)
  @ApiOperation({ summary: 'One instance of the job, with its attempts', description: INSTANCE_DESCRIPTION })
  @ApiOkResponse({ type: TaskViewDto })
  @NamedJob(APP_ID_400, INSTANCE_404)
  async instance(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('instanceId') instanceId: string,
    @Query() q: OwnerQueryDto,
  ): Promise<TaskViewDto> {
    const { instance, attempts } = await this.runs.instanceOf(caller, ref(id, q), instanceId);
    const callback = (await this.callbacks.deliveriesOf([instance.id])).get(instance.id);
    return toTaskView(instance, attempts, await this.handlers.waitingNote(instance), callback);
  }

  @Get(':id/instances')
  @RequireScope(Scope.JOBS_READ)
  @ApiOperation({
    summary: 'Instances of the job, newest fire first (paged by cursor, or offset, and limit)',
    description:
      'Answers `{total, items, nextCursor}` (0.2.0; a bare array before). Each item as GET of one instance ' +
      'without its attempts (callbackUrl and callback included). Follow `nextCursor` for the next page.',
  })
  @ApiOkResponse({ type: InstancePageDto })
  @NamedJob('A bad query (offset, limit, cursor or appId); `field` names it.')
  async instances(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Query() q: InstanceListQueryDto,
  ): Promise<InstancePageDto> {
    const { offset, limit } = pageOf(q);
    const at = q.cursor === undefined ? undefined : decodeCursor('i', q.cursor, /^\d{1,9}$/, q.offset);
    const after = at && { fireTime: at.key, shardIndex: Number(at.tie) };
    const { rows, total } = await this.runs.instancesOf(caller, ref(id, q), offset, limit + 1, after);
    const key = (last: (typeof rows)[number]) => ({ key: last.fireTime, tie: String(last.shardIndex) });
    const { page, nextCursor } = cursorPage('i', rows, limit, key);
    const sent = await this.callbacks.deliveriesOf(page.map((i) => i.id)); // one query for the page
    return { total, items: page.map((i) => toTaskView(i, undefined, undefined, sent.get(i.id))), nextCursor };
  }

  private view(d: Parameters<typeof JobViewDto.of>[0]): Promise<JobViewDto> {
    return this.views.one(d);
  }
}
