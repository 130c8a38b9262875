import { Module } from '@nestjs/common';
import { CoordinationModule } from '../../coordination/index.js';
import { APP_LIMITS, AuditModule } from '../../jobs/index.js';
import { MetadataModule } from '../../metadata/index.js';
import { ApiClientService } from './api-client.service.js';

/**
 * The API clients and their one cache per process (ApiClientService). It also serves the jobs domain's
 * {@link APP_LIMITS}, so a job owner's cap is read through the same cache the request path uses.
 */
@Module({
  imports: [MetadataModule, AuditModule, CoordinationModule],
  providers: [ApiClientService, { provide: APP_LIMITS, useExisting: ApiClientService }],
  exports: [ApiClientService, APP_LIMITS],
})
export class ApiClientModule {}
