import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsBoolean, IsIn, IsOptional } from 'class-validator';
import { BOUNDS, namePattern, nameMessage } from '../../../common/index.js';
import { NotificationKind } from '../../metadata/index.js';
import { CHANNEL_BOUNDS } from '../../notifications/index.js';
import { APP_ID_MESSAGE, APP_ID_PATTERN } from '../auth/api-client.service.js';
import { BoundedInt, BoundedString, CODE_PATTERN, HANDLER_MESSAGE, NAME_PATTERN, NameString } from './validators.js';

const { ruleName, quietMs, failureCount, withinMs, thresholdMs, code, handler, timeZone } = BOUNDS;
const RULE_NAME_CHARS = 'A-Za-z0-9_.-';
/** A rule name: 1-100 of A-Z a-z 0-9 _ . - (unique per app). */
export const RULE_NAME_PATTERN = namePattern(RULE_NAME_CHARS, ruleName);
const RULE_NAME_MESSAGE = nameMessage('name', RULE_NAME_CHARS, ruleName);
const KINDS = Object.values(NotificationKind);

/** Every field of a rule but its name (PUT /api/notifications/rules/{name}); docs/notifications.md "Rules". */
export class NotificationRuleBodyDto {
  @ApiProperty({
    enum: KINDS,
    description:
      'FINAL_FAILURE: a run or task ended FAILED or TIMEOUT. CONSECUTIVE_FAILURES: a job failed `count` times in a ' +
      'row (once per streak). RECOVERY: a job succeeded after failures. DEADLINE: a job run had not finished ' +
      '`withinMs` after its fire, or by `finishBy` (HH:MM in `timeZone`). LATE_START: a job run started (or had ' +
      'not started) `thresholdMs` after its fire. HANDLER_UNAVAILABLE: work waited `thresholdMs` for a handler no ' +
      'live executor or app worker advertises. CALLBACK_HOST_FAILING: callbacks of the app to a host were marked ' +
      'down (3 failures in a row).',
  })
  @IsIn(KINDS, { message: `kind must be one of ${KINDS.join(', ')}` })
  kind: NotificationKind;

  @NameString(code, CODE_PATTERN, `jobCode must be ${code.min}-${code.max} of [A-Za-z0-9_.-]`, {
    api: { description: 'Only this job (omitted: every job of the app; tasks too where the kind applies to them).' },
  })
  jobCode?: string;

  @NameString(handler, NAME_PATTERN, HANDLER_MESSAGE, { api: { description: 'Only runs and tasks of this handler.' } })
  handler?: string;

  @ApiPropertyOptional({ enum: ['JOB', 'TASK', 'ANY'], description: 'FINAL_FAILURE only: jobs, tasks or both.' })
  @IsOptional()
  @IsIn(['JOB', 'TASK', 'ANY'], { message: 'target must be JOB, TASK or ANY' })
  target?: 'JOB' | 'TASK' | 'ANY';

  @BoundedInt(failureCount, { api: { description: 'CONSECUTIVE_FAILURES only (required there): failures in a row.' } })
  count?: number;

  @BoundedInt(withinMs, { api: { description: 'DEADLINE: the run must finish this long after its fire, ms.' } })
  withinMs?: number;

  @NameString({ max: 5, unit: 'chars' }, /^([01]\d|2[0-3]):[0-5]\d$/, 'finishBy must be a time of day HH:MM', {
    api: {
      description: 'DEADLINE: the run must finish by this wall time (the first after its fire).',
      example: '06:00',
    },
  })
  finishBy?: string;

  @BoundedString(timeZone, {
    api: { description: 'The IANA zone of finishBy (default UTC).', example: 'Europe/Paris' },
  })
  timeZone?: string;

  @BoundedInt(thresholdMs, {
    api: { description: 'LATE_START (default 500) and HANDLER_UNAVAILABLE (default 60000, at least 1000): ms.' },
  })
  thresholdMs?: number;

  @ApiPropertyOptional({
    type: 'array',
    maxItems: CHANNEL_BOUNDS.channels,
    items: {
      oneOf: [
        {
          type: 'object',
          properties: { type: { enum: ['webhook', 'chat'] }, url: { type: 'string', maxLength: 2048 } },
          required: ['type', 'url'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: {
            type: { enum: ['email'] },
            to: { type: 'array', items: { type: 'string', maxLength: 254 }, minItems: 1, maxItems: 10 },
          },
          required: ['type', 'to'],
          additionalProperties: false,
        },
      ],
    },
    description:
      `Up to ${CHANNEL_BOUNDS.channels}: {"type":"webhook","url"} (signed JSON, as callbacks), {"type":"chat","url"} ` +
      '(a Slack or Mattermost incoming webhook), ' +
      `{"type":"email","to":[1-${CHANNEL_BOUNDS.emailTo} addresses]} (needs ` +
      'SMTP_URL). URLs pass the egress policy as callback URLs do. None: messages are recorded and listed only.',
    example: [{ type: 'email', to: ['team@example.com'] }],
  })
  @IsOptional()
  @IsArray()
  channels?: unknown[];

  @BoundedInt(quietMs, {
    api: {
      description:
        'After a message, further events of the same group wait this long and go out as one message (ms, ' +
        `default ${quietMs.default}; 0: every event its own message).`,
    },
  })
  quietMs?: number;

  @ApiPropertyOptional({
    enum: ['SUBJECT', 'RULE'],
    description: 'SUBJECT (default): one stream per job, handler or host; RULE: one.',
  })
  @IsOptional()
  @IsIn(['SUBJECT', 'RULE'], { message: 'groupBy must be SUBJECT or RULE' })
  groupBy?: 'SUBJECT' | 'RULE';

  @ApiPropertyOptional({ description: 'false: kept but not applied (default true).' })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

/** POST /api/notifications/rules body. */
export class CreateNotificationRuleDto extends NotificationRuleBodyDto {
  @NameString(ruleName, RULE_NAME_PATTERN, RULE_NAME_MESSAGE, {
    required: true,
    api: { description: `The rule's name, unique in the app (${ruleName.min}-${ruleName.max} of A-Z a-z 0-9 _ . -).` },
  })
  name: string;
}

const OWNER_BOUND = { min: 1, max: BOUNDS.appId.max, unit: 'chars' } as const;
const OWNER_PATTERN = new RegExp(`(${APP_ID_PATTERN.source})|^\\*$`);

/** `?appId=` of the rule routes: an admin names another app, or `*` for the namespace defaults. */
export class RuleOwnerQueryDto {
  @NameString(OWNER_BOUND, OWNER_PATTERN, APP_ID_MESSAGE, {
    api: {
      description:
        "Admins only: another app's rules, or `*`: the namespace defaults, which apply to every app with no enabled " +
        'rule of its own of the same kind.',
    },
  })
  appId?: string;
}

/** A rule as the API shows it. Times ISO-8601 UTC. */
export class NotificationRuleViewDto extends CreateNotificationRuleDto {
  @ApiProperty({ description: "The owning app, or '*' for a namespace default." }) appId: string;
  @ApiProperty({ description: 'Where its messages go (none: recorded and listed only).' }) declare channels: unknown[];
  @ApiProperty({ description: 'The quiet period, ms.' }) declare quietMs: number;
  @ApiProperty({ description: 'SUBJECT or RULE.' }) declare groupBy: 'SUBJECT' | 'RULE';
  @ApiProperty({ description: 'Whether it is applied.' }) declare enabled: boolean;
  @ApiProperty({ description: 'When it was created, ISO-8601 UTC.' }) createdAt: string;
  @ApiProperty({ description: 'When it was last set, ISO-8601 UTC.' }) updatedAt: string;
}

/** GET /api/notifications/rules. */
export class NotificationRuleListDto {
  @ApiProperty({ description: 'How many rules.' }) total: number;
  @ApiProperty({ type: [NotificationRuleViewDto], description: 'The rules, by name.' })
  items: NotificationRuleViewDto[];
}

/** POST /api/notifications/rules/{name}/test answer. */
export class RuleTestDto {
  @ApiProperty({ description: 'The message written; GET /api/notifications lists it with its deliveries.' })
  notificationId: string;
}
