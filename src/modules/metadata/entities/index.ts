import { ApiClient } from './api-client.entity.js';
import { AuditLog } from './audit-log.entity.js';
import { CallbackDelivery, CallbackHost, CallbackRegistration, CallbackState } from './callback-delivery.entity.js';
import { ExecutorNode } from './executor-node.entity.js';
import { JobAttempt } from './job-attempt.entity.js';
import { JobDefinition } from './job-definition.entity.js';
import { JobInstance } from './job-instance.entity.js';
import { IdempotencyKey, type IdempotencyKeyState } from './idempotency-key.entity.js';
import { type HandlerLogLevel, JobLog } from './job-log.entity.js';
import { Notification, NotificationDelivery, NotificationEvent, NotificationRule } from './notification.entity.js';

export {
  ApiClient,
  AuditLog,
  CallbackDelivery,
  CallbackHost,
  CallbackRegistration,
  CallbackState,
  ExecutorNode,
  IdempotencyKey,
  type IdempotencyKeyState,
  JobAttempt,
  JobDefinition,
  JobInstance,
  JobLog,
  type HandlerLogLevel,
  Notification,
  NotificationDelivery,
  NotificationEvent,
  NotificationRule,
};
export {
  NotificationKind,
  type NotificationChannel,
  type NotificationDeliveryState,
  type NotificationEventSample,
  type NotificationState,
} from './notification.entity.js';
export * from './enums.js';
export {
  CORRUPT_ROW,
  CorruptJson,
  corruptFields,
  corruptionOf,
  describeCorrupt,
  describeCorruptRow,
  type CorruptField,
} from './columns.js';
export { newJobInstance, type NewJobInstance } from './new-job-instance.js';

/** Every entity, for the DataSource. */
export const ENTITIES = [
  JobDefinition,
  JobInstance,
  JobAttempt,
  JobLog,
  ExecutorNode,
  CallbackDelivery,
  CallbackHost,
  CallbackRegistration,
  ApiClient,
  AuditLog,
  IdempotencyKey,
  NotificationRule,
  NotificationEvent,
  Notification,
  NotificationDelivery,
];
