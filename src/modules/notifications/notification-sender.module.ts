import { Module } from '@nestjs/common';
import { AuditModule } from '../jobs/index.js';
import { MetadataModule } from '../metadata/index.js';
import { NotificationCloser } from './sender/notification-closer.service.js';
import { NotificationSender } from './sender/notification-sender.service.js';

/** The notification closer and sender of a scheduler-role node (docs/notifications.md "Delivery"). */
@Module({
  imports: [MetadataModule, AuditModule],
  providers: [NotificationSender, NotificationCloser],
  exports: [NotificationSender, NotificationCloser],
})
export class NotificationSenderModule {}
