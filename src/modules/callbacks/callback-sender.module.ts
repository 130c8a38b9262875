import { Module } from '@nestjs/common';
import { MetadataModule } from '../metadata/index.js';
import { CallbackPost } from './sender/callback-post.js';
import { CallbackSender } from './sender/callback-sender.service.js';

/** The callback sender of a scheduler-role node (docs/callbacks.md "Sender"; docs/architecture.md roles). */
@Module({
  imports: [MetadataModule],
  providers: [CallbackSender, CallbackPost],
  exports: [CallbackSender],
})
export class CallbackSenderModule {}
