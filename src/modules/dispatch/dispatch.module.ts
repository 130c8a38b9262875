import { Module } from '@nestjs/common';
import { CoordinationModule } from '../coordination/index.js';
import { MetadataModule } from '../metadata/index.js';
import { CancelService } from './cancel.service.js';
import { DispatchService } from './dispatch.service.js';
import { JobSlotsService } from './job-slots.service.js';
import { NodeRegistryService } from './node-registry.service.js';
import { QuarantineService } from './quarantine.service.js';
import { ReconcilerService } from './reconciler.service.js';

/**
 * Dispatch (DESIGN §2, §6). Exports the facade ({@link DispatchService}), the registry view and the
 * reconciler whose passes the scheduler leader drives.
 */
@Module({
  imports: [MetadataModule, CoordinationModule],
  providers: [DispatchService, NodeRegistryService, ReconcilerService, CancelService, JobSlotsService, QuarantineService],
  exports: [DispatchService, NodeRegistryService, ReconcilerService, CancelService],
})
export class DispatchModule {}
