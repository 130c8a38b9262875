import { Body, Controller, Get, HttpCode, Inject, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { BOUNDS, CLOCK, type Clock, ValidationError } from '../../../common/index.js';
import { type Caller } from '../../jobs/index.js';
import { Scope, TriggerType } from '../../metadata/index.js';
import { previewSchedule } from '../../trigger/index.js';
import { CurrentCaller } from '../auth/caller.js';
import { RequireScope } from '../auth/scope.guard.js';
import { Signed } from '../auth/signed.decorator.js';
import { ApiProblem } from '../dto/problem.dto.js';
import {
  FireTimeDto,
  PREVIEW_FROM_MAX_MS,
  LOAD_MAX_JOBS,
  PREVIEW_FROM_MIN_MS,
  ScheduleLoadDto,
  ScheduleLoadQueryDto,
  SchedulePreviewDto,
  SchedulePreviewViewDto,
} from '../dto/schedule.dto.js';
import { ScheduleLoadService } from '../services/schedule-load.service.js';

const PREVIEW_TEXT =
  "The next fire times of a trigger after an instant, computed by the scheduler's own search (the times a job " +
  'with this trigger would fire; FIXED_RATE from `from`, FIXED_DELAY assuming runs take no time), each with its ' +
  'wall-clock time in the zone and, when a clock change (DST) moved or merged it, a note (docs/trigger.md ' +
  `"Preview and DST notes"). Validated as a job's trigger is; stores nothing. At most ${BOUNDS.previewCount.max} ` +
  'times; fewer when the trigger stops or a cron has no fire within 8 years.';

const LOAD_TEXT =
  "How many fires the enabled jobs the caller sees (its app's; an admin's: the namespace, or ?appId=) will make " +
  'per minute over the next `hours`, from the start of this minute, and the seconds where at least `herd` of them ' +
  "fall together. Computed by the scheduler's own next-fire search, as GET /api/jobs/{id} nextFireTimes: CRON " +
  "from its expression, FIXED_RATE on its grid from the job's next fire, FIXED_DELAY assuming runs take no time. " +
  'A fire counts once, whatever the shards. Bounded work: jobs with one schedule are computed once; one schedule ' +
  'iterates at most 2,000 fires and all of them 50,000; a denser job is counted on from its rate over the span it ' +
  `was iterated (estimatedJobs counts those). At most ${LOAD_MAX_JOBS} jobs are read (by code); writes nothing.`;

/** Schedule tools (docs/api.md `/api/schedules/preview`, "Schedule load"): nothing here writes a job. */
@ApiTags('schedules')
@Signed()
@Controller('api/schedules')
export class SchedulesController {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly loads: ScheduleLoadService,
  ) {}

  @Get('load')
  @RequireScope(Scope.JOBS_READ)
  @ApiOperation({ summary: 'Fires per minute of the enabled jobs over the next hours', description: LOAD_TEXT })
  @ApiOkResponse({ type: ScheduleLoadDto })
  @ApiProblem(400, 'A bad query (hours: 1-48, herd: 2-100000, appId); `field` names it.')
  load(@CurrentCaller() caller: Caller, @Query() q: ScheduleLoadQueryDto): Promise<ScheduleLoadDto> {
    return this.loads.load(caller, q.appId, q.hours, q.herd);
  }

  /** @throws ValidationError naming triggerType, triggerExpr, timeZone, from or count. */
  @Post('preview')
  @HttpCode(200)
  @RequireScope(Scope.JOBS_READ)
  @ApiOperation({ summary: 'Preview the next fire times of a trigger, with DST notes', description: PREVIEW_TEXT })
  @ApiOkResponse({
    type: SchedulePreviewViewDto,
    description: 'The trigger as read (defaults filled in), the start, and up to count fire times with notes.',
  })
  @ApiProblem(
    400,
    'Invalid input (code VALIDATION) naming the field: triggerType, triggerExpr (bad or never-firing cron, bad ' +
      'period, bad instant), timeZone (unknown zone), from (not an instant with Z or an offset, or out of range) ' +
      'or count (not 1-100).',
  )
  @ApiProblem(401, 'Missing or invalid signature, an unknown app, a replayed nonce (code UNAUTHORIZED).')
  @ApiProblem(403, 'Without the jobs:read scope (code FORBIDDEN).')
  @ApiProblem(413, 'Body over 2 MiB (code PAYLOAD_TOO_LARGE).')
  @ApiProblem(415, 'Body not application/json (code UNSUPPORTED_MEDIA_TYPE).')
  @ApiProblem(429, "Over the app's request rate limit (code RATE_LIMITED).", {
    'Retry-After': { description: 'Seconds to wait (at least 1).', schema: { type: 'integer' } },
  })
  preview(@Body() dto: SchedulePreviewDto): SchedulePreviewViewDto {
    const fromMs = dto.from == null ? this.clock.now() : Date.parse(dto.from); // null: as if left out (a CLI)
    if (!(fromMs >= PREVIEW_FROM_MIN_MS && fromMs < PREVIEW_FROM_MAX_MS)) {
      throw new ValidationError('from', 'from must lie between 1970-01-01T00:00:00Z and 3000-01-01T00:00:00Z');
    }
    const def = {
      triggerType: dto.triggerType ?? TriggerType.CRON,
      triggerExpr: dto.triggerExpr.trim(),
      timeZone: dto.timeZone?.trim() || 'UTC',
    };
    const fires = previewSchedule(def, fromMs, dto.count ?? BOUNDS.previewCount.default);
    return { ...def, from: new Date(fromMs).toISOString(), fireTimes: fires.map((f) => FireTimeDto.of(f)) };
  }
}
