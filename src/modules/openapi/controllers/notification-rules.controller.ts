import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ValidationError } from '../../../common/index.js';
import { type Caller } from '../../jobs/index.js';
import { Scope, type NotificationRule } from '../../metadata/index.js';
import { NotificationRules } from '../../notifications/index.js';
import { CurrentCaller } from '../auth/caller.js';
import { RequireScope } from '../auth/scope.guard.js';
import { Signed } from '../auth/signed.decorator.js';
import {
  CreateNotificationRuleDto,
  NotificationRuleBodyDto,
  NotificationRuleListDto,
  NotificationRuleViewDto,
  RULE_NAME_PATTERN,
  RuleOwnerQueryDto,
  RuleTestDto,
} from '../dto/notification-rule.dto.js';
import { ApiProblem } from '../dto/problem.dto.js';
import { iso } from '../views/iso.js';

const OWN =
  "The calling app's rules only (an admin names another app with ?appId=, or ?appId=* for the namespace " +
  'defaults, which apply to every app with no enabled rule of its own of that kind). Audit-logged.';
const SET =
  'Channels: webhook (signed JSON), chat (Slack/Mattermost incoming webhook) or email (SMTP_URL must be set); ' +
  'URLs pass the egress policy (a 400 naming channels[i].url). Each kind takes its own fields (another is a 400 ' +
  'naming it). Events of one group (job, handler or host; or the whole rule with groupBy RULE) within quietMs of ' +
  `the group's last message go out as one message (docs/notifications.md). At most 50 rules per app. ${OWN}`;

function view(r: NotificationRule): NotificationRuleViewDto {
  const p = r.params;
  return {
    name: r.name,
    appId: r.appId,
    kind: r.kind,
    ...(r.jobCode === null ? {} : { jobCode: r.jobCode }),
    ...(r.handler === null ? {} : { handler: r.handler }),
    ...(p.target === undefined ? {} : { target: p.target as 'JOB' }),
    ...(p.count === undefined ? {} : { count: Number(p.count) }),
    ...(p.withinMs === undefined ? {} : { withinMs: Number(p.withinMs) }),
    ...(p.finishBy === undefined ? {} : { finishBy: String(p.finishBy), timeZone: String(p.timeZone) }),
    ...(p.thresholdMs === undefined ? {} : { thresholdMs: Number(p.thresholdMs) }),
    channels: r.channels,
    quietMs: r.quietMs,
    groupBy: r.groupBy,
    enabled: r.enabled,
    createdAt: iso(r.createdAt) as string,
    updatedAt: iso(r.updatedAt) as string,
  };
}

function ruleName(name: string): string {
  if (!RULE_NAME_PATTERN.test(name)) throw new ValidationError('name', 'name must be 1-100 of [A-Za-z0-9_.-]');
  return name;
}

/** An app's notification rules (docs/notifications.md "Rules", docs/api.md "Notifications"). */
@ApiTags('notifications')
@Signed()
@Controller('api/notifications/rules')
export class NotificationRulesController {
  constructor(private readonly rules: NotificationRules) {}

  @Post()
  @RequireScope(Scope.JOBS_WRITE)
  @ApiOperation({ summary: 'Create a notification rule', description: SET })
  @ApiCreatedResponse({ type: NotificationRuleViewDto })
  @ApiProblem(400, 'A bad field (`field` names it: kind, count, finishBy, channels[1].to[0], …).')
  @ApiProblem(409, 'A rule of that name exists (PUT replaces it), or the app holds 50 rules (field name).')
  async create(
    @CurrentCaller() caller: Caller,
    @Body() dto: CreateNotificationRuleDto,
    @Query() q: RuleOwnerQueryDto,
  ): Promise<NotificationRuleViewDto> {
    return view(await this.rules.set(caller, dto, false, q.appId));
  }

  @Put(':name')
  @RequireScope(Scope.JOBS_WRITE)
  @ApiOperation({ summary: 'Create or replace a notification rule', description: `The body is the whole rule. ${SET}` })
  @ApiOkResponse({ type: NotificationRuleViewDto })
  @ApiProblem(400, 'A bad name or field (`field` names it).')
  @ApiProblem(409, 'The app holds 50 rules (field name).')
  async put(
    @CurrentCaller() caller: Caller,
    @Param('name') name: string,
    @Body() dto: NotificationRuleBodyDto,
    @Query() q: RuleOwnerQueryDto,
  ): Promise<NotificationRuleViewDto> {
    return view(await this.rules.set(caller, { ...dto, name: ruleName(name) }, true, q.appId));
  }

  @Get()
  @RequireScope(Scope.JOBS_READ)
  @ApiOperation({ summary: "The app's notification rules", description: OWN })
  @ApiOkResponse({ type: NotificationRuleListDto })
  @ApiProblem(400, 'A bad ?appId= (field appId).')
  async list(@CurrentCaller() caller: Caller, @Query() q: RuleOwnerQueryDto): Promise<NotificationRuleListDto> {
    const items = (await this.rules.list(caller, q.appId)).map(view);
    return { total: items.length, items };
  }

  @Get(':name')
  @RequireScope(Scope.JOBS_READ)
  @ApiOperation({ summary: 'One notification rule', description: OWN })
  @ApiOkResponse({ type: NotificationRuleViewDto })
  @ApiProblem(404, 'No rule of that name.')
  async get(
    @CurrentCaller() caller: Caller,
    @Param('name') name: string,
    @Query() q: RuleOwnerQueryDto,
  ): Promise<NotificationRuleViewDto> {
    return view(await this.rules.get(caller, ruleName(name), q.appId));
  }

  @Delete(':name')
  @HttpCode(204)
  @RequireScope(Scope.JOBS_WRITE)
  @ApiOperation({ summary: 'Delete a notification rule', description: `Its messages stay listed. ${OWN}` })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiProblem(404, 'No rule of that name.')
  async remove(@CurrentCaller() caller: Caller, @Param('name') name: string, @Query() q: RuleOwnerQueryDto) {
    await this.rules.remove(caller, ruleName(name), q.appId);
  }

  @Post(':name/test')
  @HttpCode(200)
  @RequireScope(Scope.JOBS_WRITE)
  @ApiOperation({
    summary: "Send a test message to a rule's channels",
    description:
      'Writes a message of the rule now, past its quiet period, and sends it to every channel like any other ' +
      '(GET /api/notifications shows its deliveries; the per-app hourly cap applies). Audit-logged ' +
      `(NOTIFY_RULE_TEST). ${OWN}`,
  })
  @ApiOkResponse({ type: RuleTestDto })
  @ApiProblem(404, 'No rule of that name.')
  @ApiProblem(429, 'The app had NOTIFY_MAX_PER_HOUR messages in the last hour (Retry-After: 300).')
  async test(
    @CurrentCaller() caller: Caller,
    @Param('name') name: string,
    @Query() q: RuleOwnerQueryDto,
  ): Promise<RuleTestDto> {
    return { notificationId: await this.rules.test(caller, ruleName(name), q.appId) };
  }
}
