import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiAcceptedResponse, ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { MAX_SHARDS } from '../../../common/index.js';
import { AppId, Signed } from '../auth/signed.decorator.js';
import { BackfillDto, CreateJobDto, CrontabImportResultDto, ImportCrontabDto, ListQueryDto, TriggerJobDto, UpdateJobDto } from '../dto/job.dto.js';
import { JobViewDto } from '../dto/job-view.dto.js';
import { TaskViewDto, TriggerViewDto } from '../dto/task.dto.js';
import { MaxBodyItems } from '../filters/body-items.interceptor.js';
import { CrontabImportService } from '../services/crontab-import.service.js';
import { toTaskView } from '../services/instance-view.js';
import { HandlerCheckService } from '../services/handler-check.service.js';
import { JobsService } from '../services/jobs.service.js';

/** Job definitions (DESIGN §8 `/api/jobs`). `{id}` is the job's id or its code. */
@ApiTags('jobs')
@Signed()
@Controller('api/jobs')
export class JobsController {
  constructor(
    private readonly jobs: JobsService,
    private readonly importer: CrontabImportService,
    private readonly handlers: HandlerCheckService,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create a job definition' })
  @ApiCreatedResponse({ type: JobViewDto })
  @ApiBadRequestResponse({ description: 'Invalid definition, e.g. a bad cron expression (field triggerExpr) or time zone (field timeZone).' })
  @ApiConflictResponse({ description: 'The code exists.' })
  @MaxBodyItems({ shardParams: MAX_SHARDS })
  async create(@AppId() appId: string, @Body() dto: CreateJobDto): Promise<JobViewDto> {
    return this.view(await this.jobs.create(appId, dto));
  }

  @Get()
  @ApiOperation({ summary: 'List job definitions (by code)' })
  async list(@Query() q: ListQueryDto): Promise<{ total: number; items: JobViewDto[] }> {
    const [items, total] = await this.jobs.list(q.offset ?? 0, q.limit ?? 50);
    return { total, items: items.map((d) => this.view(d)) };
  }

  @Post('import-crontab')
  @HttpCode(200)
  @ApiOperation({ summary: 'Import a cron.d file', description: "Each entry becomes a 'shell' job <fileName>-L<line>; lines that are not jobs are listed with the reason (the first 100, each cut; rejectedTotal counts them all). Jobs are created paused unless enable=true." })
  @ApiOkResponse({ type: CrontabImportResultDto })
  async importCrontab(@AppId() appId: string, @Body() dto: ImportCrontabDto): Promise<CrontabImportResultDto> {
    return this.importer.import(appId, dto);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Read a job definition with its next 5 fire times' })
  @ApiOkResponse({ type: JobViewDto })
  @ApiNotFoundResponse()
  async get(@Param('id') id: string): Promise<JobViewDto> {
    return this.view(await this.jobs.get(id));
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change a job definition (any subset of fields)' })
  @ApiOkResponse({ type: JobViewDto })
  @MaxBodyItems({ shardParams: MAX_SHARDS })
  async update(@AppId() appId: string, @Param('id') id: string, @Body() dto: UpdateJobDto): Promise<JobViewDto> {
    return this.view(await this.jobs.update(appId, id, dto));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a job definition (its instances stay as history)' })
  async remove(@AppId() appId: string, @Param('id') id: string): Promise<void> {
    await this.jobs.remove(appId, id);
  }

  @Post(':id/pause')
  @HttpCode(200)
  @ApiOperation({ summary: 'Pause the schedule' })
  async pause(@AppId() appId: string, @Param('id') id: string): Promise<JobViewDto> {
    return this.view(await this.jobs.pause(appId, id));
  }

  @Post(':id/resume')
  @HttpCode(200)
  @ApiOperation({ summary: 'Resume the schedule from now' })
  async resume(@AppId() appId: string, @Param('id') id: string): Promise<JobViewDto> {
    return this.view(await this.jobs.resume(appId, id));
  }

  @Post(':id/trigger')
  @HttpCode(202)
  @ApiOperation({ summary: 'Run the job once now (MANUAL instance), paused or not, under its overlap policy (SKIP answers a CANCELLED instance, QUEUE a WAITING one, REPLACE cancels the unfinished ones)' })
  @ApiAcceptedResponse({ type: TriggerViewDto, description: 'The new instance (shard 0 of a sharded job, with every shard under `shards`).' })
  async trigger(@AppId() appId: string, @Param('id') id: string, @Body() dto: TriggerJobDto): Promise<TriggerViewDto> {
    const [first, ...others] = await this.jobs.triggerNow(appId, id, dto.params);
    return { ...toTaskView(first), ...(others.length > 0 ? { shards: [first, ...others].map((i) => toTaskView(i)) } : {}) };
  }

  @Post(':id/backfill')
  @HttpCode(200)
  @ApiOperation({ summary: 'Fire the job for every scheduled time of a past range', description: 'One BACKFILL instance per scheduled time in [from, to] (at most 1000 fires and 10,000 instances with the shards; to may not be in the future) that has no instance yet, under the job\'s overlap policy. Times that already ran are left alone, so repeating a backfill creates nothing new.' })
  async backfill(@AppId() appId: string, @Param('id') id: string, @Body() dto: BackfillDto): Promise<{ created: number; existing: number; fireTimes: string[] }> {
    const out = await this.jobs.backfill(appId, id, Date.parse(dto.from), Date.parse(dto.to));
    return { created: out.created, existing: out.existing, fireTimes: out.fireTimes.map((t) => new Date(t).toISOString()) };
  }

  @Post(':id/instances/:instanceId/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel one instance of the job', description: 'As POST /api/tasks/{requestId}/cancel.' })
  async cancelInstance(@AppId() appId: string, @Param('id') id: string, @Param('instanceId') instanceId: string): Promise<TaskViewDto> {
    return toTaskView(await this.jobs.cancelInstance(appId, id, instanceId));
  }

  @Get(':id/instances/:instanceId')
  @ApiOperation({ summary: 'One instance of the job, with its attempts', description: 'As GET /api/tasks/{requestId}, for a fire of the job (its instanceId is in the trigger-now answer and the instance list).' })
  @ApiOkResponse({ type: TaskViewDto })
  @ApiNotFoundResponse({ description: 'No such job, or the instance is not one of its.' })
  async instance(@Param('id') id: string, @Param('instanceId') instanceId: string): Promise<TaskViewDto> {
    const { instance, attempts } = await this.jobs.instanceOf(id, instanceId);
    return toTaskView(instance, attempts, await this.handlers.waitingNote(instance));
  }

  @Get(':id/instances')
  @ApiOperation({ summary: 'Recent instances of the job, newest fire first (paged by offset and limit)' })
  async instances(@Param('id') id: string, @Query() q: ListQueryDto): Promise<TaskViewDto[]> {
    return (await this.jobs.instancesOf(id, q.offset ?? 0, q.limit ?? 50)).map((i) => toTaskView(i));
  }

  private view(d: Parameters<typeof JobViewDto.of>[0]): JobViewDto {
    return JobViewDto.of(d, this.jobs.preview(d));
  }
}
