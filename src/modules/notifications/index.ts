export { NotificationSenderModule } from './notification-sender.module.js';
export { NotificationSender, deliveryHost } from './sender/notification-sender.service.js';
export { NotificationCloser, CLOSE_POLL_MS, type ClosePass } from './sender/notification-closer.service.js';
export { classifyDelivery, type ChannelResult, type DeliveryOutcome } from './sender/outcome.js';
export { chatBody, emailText, eventLine, type WebhookBody, webhookBody } from './channels/message-text.js';
export { EVENT_HEADER } from './channels/http-channel.js';
export { maskSmtpUrl } from './channels/email-channel.js';
export { NotificationEvaluatorModule, NotificationRulesModule } from './notifications.module.js';
export { NotificationRules, MAX_NOTIFICATION_RULES } from './rules/notification-rules.service.js';
export {
  CHANNEL_BOUNDS,
  checkChannels,
  DEFAULT_HANDLER_WAIT_MS,
  DEFAULT_LATE_MS,
  DEFAULT_QUIET_MS,
  deadlineOf,
  type FailureTarget,
  type RuleInput,
  ruleParams,
} from './rules/rule-input.js';
export { NotificationEvaluator } from './evaluator/notification-evaluator.js';
export { NotificationScans } from './scans/notification-scans.js';
export { ScanEvent } from './evaluator/event-outputs.js';
export { BUILTIN_HOST_RULE } from './evaluator/match.js';
