import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintNumber, jsonText } from './columns.js';

/** What a notification rule watches for (docs/notifications.md "Rules"). */
export const NotificationKind = {
  FINAL_FAILURE: 'FINAL_FAILURE',
  CONSECUTIVE_FAILURES: 'CONSECUTIVE_FAILURES',
  RECOVERY: 'RECOVERY',
  DEADLINE: 'DEADLINE',
  LATE_START: 'LATE_START',
  HANDLER_UNAVAILABLE: 'HANDLER_UNAVAILABLE',
  CALLBACK_HOST_FAILING: 'CALLBACK_HOST_FAILING',
} as const;
export type NotificationKind = (typeof NotificationKind)[keyof typeof NotificationKind];

/** Where a notification goes (docs/notifications.md "Channels"); `to` holds 1-10 e-mail addresses. */
export type NotificationChannel =
  { type: 'webhook'; url: string } | { type: 'chat'; url: string } | { type: 'email'; to: string[] };

/** One thing that happened, as a message shows it (a sample of its events); times ISO-8601 UTC. */
export interface NotificationEventSample {
  at: string;
  jobCode?: string | null;
  requestId?: string | null;
  instanceId?: string | null;
  handler?: string | null;
  status?: string | null;
  error?: string | null;
  host?: string | null;
  detail?: string | null;
  /** The run's W3C trace context (docs/observability.md "Tracing"); absent on samples stored before it. */
  traceparent?: string | null;
}

/**
 * An app's notification rule, or a namespace default (`appId` = '*', set by an admin) that applies to every app
 * with no rule of its own of the same kind. `params` by kind: `{count}` (CONSECUTIVE_FAILURES), `{withinMs}` or
 * `{finishBy: 'HH:MM', zone}` (DEADLINE), `{thresholdMs}` (LATE_START, HANDLER_UNAVAILABLE),
 * `{target: 'JOB'|'TASK'|'ANY'}` (FINAL_FAILURE). Times epoch ms UTC.
 */
@Entity('notification_rule')
@Index('uq_notification_rule_name', ['namespace', 'appId', 'name'], { unique: true })
export class NotificationRule {
  @PrimaryColumn({ type: 'varchar', length: 36 }) id: string;
  @Column({ type: 'varchar', length: 64 }) namespace: string;
  @Column({ name: 'app_id', type: 'varchar', length: 64 }) appId: string;
  @Column({ type: 'varchar', length: 100 }) name: string;
  @Column({ type: 'varchar', length: 32 }) kind: NotificationKind;
  /** Only this job's instances (null: every job of the app, and its tasks where the kind applies to tasks). */
  @Column({ name: 'job_code', type: 'varchar', length: 128, nullable: true }) jobCode: string | null;
  /** Only instances of this handler (null: any). */
  @Column({ type: 'varchar', length: 128, nullable: true }) handler: string | null;
  @Column({ type: 'text', transformer: jsonText }) params: Record<string, unknown>;
  @Column({ type: 'text', transformer: jsonText }) channels: NotificationChannel[];
  /** After a message, further events of the same group wait this long and go out as one message. */
  @Column({ name: 'quiet_ms', type: 'int' }) quietMs: number;
  /** `SUBJECT`: one message stream per job, handler or host; `RULE`: one for the whole rule. */
  @Column({ name: 'group_by', type: 'varchar', length: 16 }) groupBy: 'SUBJECT' | 'RULE';
  @Column({ type: 'boolean', default: true }) enabled: boolean;
  @Column({ name: 'created_at', type: 'bigint', transformer: bigintNumber }) createdAt: number;
  @Column({ name: 'updated_at', type: 'bigint', transformer: bigintNumber }) updatedAt: number;
}

/**
 * Something that happened and may match rules (docs/notifications.md "Events"): written in the transaction of a
 * final state (kind INSTANCE_FINAL) or by a scan (DEADLINE, LATE_START, HANDLER_WAIT, HOST_DOWN). The unique
 * `dedupKey` makes a retried write or a repeated scan one event; a processed event is kept for a while so a scan
 * cannot write it again. Times epoch ms UTC.
 */
@Entity('notification_event')
@Index('uq_notification_event_dedup', ['namespace', 'dedupKey'], { unique: true })
@Index('ix_notification_event_todo', ['namespace', 'processedAt', 'createdAt'])
export class NotificationEvent {
  @PrimaryColumn({ type: 'varchar', length: 36 }) id: string;
  @Column({ type: 'varchar', length: 64 }) namespace: string;
  @Column({ name: 'app_id', type: 'varchar', length: 64 }) appId: string;
  @Column({ type: 'varchar', length: 32 }) kind: string;
  @Column({ name: 'dedup_key', type: 'varchar', length: 255 }) dedupKey: string;
  @Column({ name: 'instance_id', type: 'varchar', length: 36, nullable: true }) instanceId: string | null;
  /** The rule a scan wrote it for (DEADLINE, LATE_START), null when every rule of the app may match. */
  @Column({ name: 'rule_id', type: 'varchar', length: 36, nullable: true }) ruleId: string | null;
  @Column({ type: 'text', nullable: true, transformer: jsonText }) data: Record<string, unknown> | null;
  @Column({ type: 'bigint', transformer: bigintNumber }) at: number;
  @Column({ type: 'varchar', length: 36, nullable: true }) claim: string | null;
  @Column({ name: 'lease_until', type: 'bigint', nullable: true, transformer: bigintNumber })
  leaseUntil: number | null;
  @Column({ name: 'processed_at', type: 'bigint', nullable: true, transformer: bigintNumber })
  processedAt: number | null;
  @Column({ name: 'created_at', type: 'bigint', transformer: bigintNumber }) createdAt: number;
}

/** A message's state: OPEN collects events until `sendAt`; SENT has its deliveries written. */
export type NotificationState = 'OPEN' | 'SENT';

/**
 * One message of a rule to an app's channels (docs/notifications.md "Quiet period and grouping"): the events of
 * one group (`groupKey`: the job, handler or host, or '*') that arrived before `sendAt`. `openKey` is set (unique)
 * while OPEN, so concurrent writers add to one open message; the sender clears it when it writes the deliveries.
 * Times epoch ms UTC.
 */
@Entity('notification')
@Index('uq_notification_open', ['openKey'], { unique: true })
@Index('ix_notification_due', ['namespace', 'state', 'sendAt'])
@Index('ix_notification_group', ['namespace', 'appId', 'ruleName', 'groupKey', 'sendAt'])
@Index('ix_notification_app', ['namespace', 'appId', 'createdAt'])
export class Notification {
  @PrimaryColumn({ type: 'varchar', length: 36 }) id: string;
  @Column({ type: 'varchar', length: 64 }) namespace: string;
  @Column({ name: 'app_id', type: 'varchar', length: 64 }) appId: string;
  /** The rule's id; null for the built-in default rule. */
  @Column({ name: 'rule_id', type: 'varchar', length: 36, nullable: true }) ruleId: string | null;
  @Column({ name: 'rule_name', type: 'varchar', length: 100 }) ruleName: string;
  @Column({ type: 'varchar', length: 32 }) kind: NotificationKind;
  @Column({ name: 'group_key', type: 'varchar', length: 300 }) groupKey: string;
  @Column({ name: 'open_key', type: 'varchar', length: 64, nullable: true }) openKey: string | null;
  @Column({ type: 'varchar', length: 16 }) state: NotificationState;
  @Column({ type: 'varchar', length: 300 }) title: string;
  /** The first events of the message (at most 20); `eventCount` counts them all. */
  @Column({ type: 'text', transformer: jsonText }) events: NotificationEventSample[];
  @Column({ name: 'event_count', type: 'int' }) eventCount: number;
  @Column({ name: 'first_event_at', type: 'bigint', transformer: bigintNumber }) firstEventAt: number;
  @Column({ name: 'last_event_at', type: 'bigint', transformer: bigintNumber }) lastEventAt: number;
  @Column({ name: 'send_at', type: 'bigint', transformer: bigintNumber }) sendAt: number;
  /** The rule's channels when the message was opened (a later rule change affects later messages). */
  @Column({ type: 'text', transformer: jsonText }) channels: NotificationChannel[];
  @Column({ name: 'sent_at', type: 'bigint', nullable: true, transformer: bigintNumber }) sentAt: number | null;
  @Column({ name: 'created_at', type: 'bigint', transformer: bigintNumber }) createdAt: number;
  @Column({ name: 'updated_at', type: 'bigint', transformer: bigintNumber }) updatedAt: number;
}

/** A delivery's state: PENDING and RETRYING are due work, DELIVERED and FAILED final. */
export type NotificationDeliveryState = 'PENDING' | 'RETRYING' | 'DELIVERED' | 'FAILED';

/**
 * The outbox row of one message to one channel (docs/notifications.md "Delivery"): written when the message is
 * sent, claimed and retried like a callback delivery. `id` is the delivery id a webhook receiver deduplicates
 * on. Times epoch ms UTC.
 */
@Entity('notification_delivery')
@Index('uq_notification_delivery_channel', ['notificationId', 'channelIndex'], { unique: true })
@Index('ix_notification_delivery_due', ['namespace', 'state', 'nextAttemptAt'])
@Index('ix_notification_delivery_app', ['namespace', 'appId', 'createdAt'])
export class NotificationDelivery {
  @PrimaryColumn({ type: 'varchar', length: 36 }) id: string;
  @Column({ type: 'varchar', length: 64 }) namespace: string;
  @Column({ name: 'app_id', type: 'varchar', length: 64 }) appId: string;
  @Column({ name: 'notification_id', type: 'varchar', length: 36 }) notificationId: string;
  @Column({ name: 'channel_index', type: 'int' }) channelIndex: number;
  @Column({ name: 'channel_type', type: 'varchar', length: 16 }) channelType: NotificationChannel['type'];
  /** The URL, or the e-mail addresses comma-separated. */
  @Column({ type: 'varchar', length: 2048 }) target: string;
  @Column({ type: 'varchar', length: 16 }) state: NotificationDeliveryState;
  @Column({ type: 'int', default: 0 }) attempts: number;
  @Column({ name: 'next_attempt_at', type: 'bigint', transformer: bigintNumber }) nextAttemptAt: number;
  @Column({ type: 'varchar', length: 36, nullable: true }) claim: string | null;
  @Column({ name: 'lease_until', type: 'bigint', nullable: true, transformer: bigintNumber })
  leaseUntil: number | null;
  @Column({ name: 'last_status_code', type: 'int', nullable: true }) lastStatusCode: number | null;
  @Column({ name: 'last_error', type: 'varchar', length: 1024, nullable: true }) lastError: string | null;
  @Column({ name: 'delivered_at', type: 'bigint', nullable: true, transformer: bigintNumber })
  deliveredAt: number | null;
  @Column({ name: 'created_at', type: 'bigint', transformer: bigintNumber }) createdAt: number;
  @Column({ name: 'updated_at', type: 'bigint', transformer: bigintNumber }) updatedAt: number;
}
