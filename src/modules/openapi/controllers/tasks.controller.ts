import { Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBadRequestResponse, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Response } from 'express';
import { AppId, Signed } from '../auth/signed.decorator.js';
import { SubmitTaskDto, TaskAcceptedDto, TaskViewDto } from '../dto/task.dto.js';
import { toTaskView } from '../services/instance-view.js';
import { TasksService } from '../services/tasks.service.js';

/** The asynchronous task API (DESIGN §8). */
@ApiTags('tasks')
@Signed()
@Controller('api/tasks')
export class TasksController {
  constructor(private readonly tasks: TasksService) {}

  @Post()
  @HttpCode(202)
  @ApiOperation({ summary: 'Submit a task', description: 'Answers at once with a requestId; the task runs on an executor that advertises its handler. Resending the same requestId with the same body returns the first answer (header Idempotent-Replayed: true); with another body it is a 409.' })
  @ApiAcceptedResponse({ type: TaskAcceptedDto })
  @ApiBadRequestResponse({ description: 'Invalid body; `field` names the part at fault.' })
  @ApiConflictResponse({ description: 'requestId reused with a different body.' })
  async submit(@AppId() appId: string, @Body() dto: SubmitTaskDto, @Res({ passthrough: true }) res: Response): Promise<TaskAcceptedDto> {
    const { accepted, replayed } = await this.tasks.submit(appId, dto);
    if (replayed) res.setHeader('Idempotent-Replayed', 'true');
    return accepted;
  }

  @Post(':requestId/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel a task', description: 'PENDING, WAITING, DISPATCHED or RUNNING → CANCELLED. A running handler sees its AbortSignal fire within one executor heartbeat; its late result is not recorded. A task that already ended is returned unchanged.' })
  @ApiOkResponse({ type: TaskViewDto })
  @ApiNotFoundResponse({ description: 'No task of yours has this requestId.' })
  async cancel(@AppId() appId: string, @Param('requestId') requestId: string): Promise<TaskViewDto> {
    return toTaskView(await this.tasks.cancel(appId, requestId));
  }

  @Get(':requestId')
  @ApiOperation({ summary: 'Task status', description: 'Status, attempt, node, result or error, and timestamps of one of your tasks.' })
  @ApiOkResponse({ type: TaskViewDto })
  @ApiNotFoundResponse({ description: 'No task of yours has this requestId.' })
  async get(@AppId() appId: string, @Param('requestId') requestId: string): Promise<TaskViewDto> {
    return toTaskView(await this.tasks.get(appId, requestId));
  }
}
