import { DynamicModule, Module } from '@nestjs/common';
import { MetadataModule } from '../../metadata/index.js';
import { CallbackHosts } from './callback-hosts.service.js';
import { CallbackRedeliver } from './callback-redeliver.service.js';
import { CallbackRegistrations } from './callback-registrations.service.js';

const SERVICES = [CallbackRegistrations, CallbackRedeliver, CallbackHosts];

/** The callbacks domain behind the API (docs/callbacks.md): registrations, deliveries' views, redeliver, hosts. */
@Module({})
export class CallbacksApiModule {
  /** @param jobs the app's one JobsModule.forRoot(...) instance (audit, the callback URL check). */
  static forRoot(jobs: DynamicModule): DynamicModule {
    return { module: CallbacksApiModule, imports: [MetadataModule, jobs], providers: SERVICES, exports: SERVICES };
  }
}
