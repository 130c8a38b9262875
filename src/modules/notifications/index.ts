export { NotificationSenderModule } from './notification-sender.module.js';
export { NotificationSender, deliveryHost } from './sender/notification-sender.service.js';
export { NotificationCloser, CLOSE_POLL_MS, type ClosePass } from './sender/notification-closer.service.js';
export { classifyDelivery, type ChannelResult, type DeliveryOutcome } from './sender/outcome.js';
export { chatBody, emailText, eventLine, type WebhookBody, webhookBody } from './channels/message-text.js';
export { EVENT_HEADER } from './channels/http-channel.js';
export { maskSmtpUrl } from './channels/email-channel.js';
