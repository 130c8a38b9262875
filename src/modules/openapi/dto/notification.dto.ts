import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { NotificationKind } from '../../metadata/index.js';
import { CursorListQueryDto } from './list.dto.js';
import { AppIdQuery } from './owner-query.dto.js';

const KINDS = Object.values(NotificationKind);
const STATES = ['OPEN', 'SENT'];
/** notification.rule_name's length. */
export const RULE_NAME_MAX = 100;

/** GET /api/notifications query: paged by cursor (or offset) like the audit log, with filters. */
export class NotificationListQueryDto extends CursorListQueryDto {
  @ApiPropertyOptional({
    enum: STATES,
    description: 'OPEN: still collecting events until sendAt; SENT: closed, its deliveries written.',
  })
  @IsOptional()
  @IsIn(STATES, { message: `state must be one of ${STATES.join(', ')}` })
  state?: 'OPEN' | 'SENT';

  @ApiPropertyOptional({ enum: KINDS, description: 'Only messages of rules of this kind.' })
  @IsOptional()
  @IsIn(KINDS, { message: `kind must be one of ${KINDS.join(', ')}` })
  kind?: NotificationKind;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: RULE_NAME_MAX,
    description: `Only messages of the rule of this name (1-${RULE_NAME_MAX} characters, exact).`,
  })
  @IsOptional()
  @IsString()
  @Length(1, RULE_NAME_MAX)
  rule?: string;

  @AppIdQuery(
    "Admins only: this app's messages (default for an admin: every app's of the namespace; for anyone else: its " +
      "own). Another app's id without the admin scope is a 403.",
  )
  appId?: string;
}

/** One delivery of a message to one channel. Times ISO-8601 UTC. */
export class NotificationDeliveryViewDto {
  @ApiProperty({ description: 'The delivery id (UUID): X-Tickwheel-Delivery of a webhook, the same on every try.' })
  id: string;
  @ApiProperty({ enum: ['webhook', 'chat', 'email'], description: 'The channel type.' }) channel: string;
  @ApiProperty({ description: 'The URL without its query string, or the e-mail addresses comma-separated.' })
  target: string;
  @ApiProperty({
    enum: ['PENDING', 'RETRYING', 'DELIVERED', 'FAILED'],
    description:
      'PENDING: not tried yet; RETRYING: tried again at nextAttemptAt (NOTIFY_RETRY_DELAYS_MS); DELIVERED; FAILED ' +
      '(final): tries spent, a 3xx or a 4xx other than 408/429, an egress refusal, an SMTP 5xx, SMTP_NOT_CONFIGURED ' +
      'or a stored row that cannot be sent.',
  })
  state: string;
  @ApiProperty({ description: 'Tries made.' }) attempts: number;
  @ApiProperty({ type: Number, nullable: true, description: 'HTTP status or SMTP reply code of the last try.' })
  lastStatusCode: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why the last try failed.' }) lastError: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The next try, while PENDING or RETRYING.' })
  nextAttemptAt: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'When it was delivered.' }) deliveredAt: string | null;
}

/** One message (docs/notifications.md "Reading notifications"). Times ISO-8601 UTC. */
export class NotificationViewDto {
  @ApiProperty({ description: 'The message id (UUID): notificationId of a webhook body.' }) id: string;
  @ApiProperty({ description: 'The app the message is for.' }) appId: string;
  @ApiProperty({ description: 'The rule that made it.' }) rule: string;
  @ApiProperty({ enum: KINDS, description: 'The kind of the rule (docs/notifications.md "Rules").' }) kind: string;
  @ApiProperty({ description: 'One line saying what happened.' }) title: string;
  @ApiProperty({ description: "The group's key: the job, handler or host, or '*' for a whole rule." })
  groupKey: string;
  @ApiProperty({ enum: STATES, description: 'OPEN: collecting events until sendAt; SENT: closed, deliveries written.' })
  state: string;
  @ApiProperty({ description: 'Events in the message (events holds the first of them).' }) eventCount: number;
  @ApiProperty({ description: 'When its first event happened.' }) firstEventAt: string;
  @ApiProperty({ description: 'When its last event happened.' }) lastEventAt: string;
  @ApiProperty({ description: 'When it is (or was) due to be sent.' }) sendAt: string;
  @ApiProperty({ type: String, nullable: true, description: 'When it was sent (closed); null while OPEN.' })
  sentAt: string | null;
  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description: 'The first events (at, jobCode, requestId, instanceId, handler, status, error, host, detail).',
  })
  events: Array<Record<string, unknown>>;
  @ApiProperty({ type: [NotificationDeliveryViewDto], description: 'One per channel in channel order; [] while OPEN.' })
  deliveries: NotificationDeliveryViewDto[];
}

/** A page of messages, newest first. */
export class NotificationPageDto {
  @ApiProperty({ description: 'How many messages match the filters in all (every page).' }) total: number;
  @ApiProperty({ type: [NotificationViewDto], description: 'Newest first (then by id); at most `limit`.' })
  items: NotificationViewDto[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Give as `cursor` for the next page; null when this page is the last.',
  })
  nextCursor: string | null;
}
