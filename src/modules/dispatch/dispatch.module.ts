import { Module } from '@nestjs/common';
import { CoordinationModule } from '../coordination/index.js';
import { MetadataModule } from '../metadata/index.js';
import { AdmissionModule } from './admission/index.js';
import { CancelService } from './cancel.service.js';
import { DelayPump } from './delay-pump.js';
import { DispatchService } from './dispatch.service.js';
import { NodeRegistryService } from './node-registry.service.js';
import { QuarantineService } from './quarantine.service.js';
import { ReconcilerService } from './reconciler.service.js';

/**
 * Dispatch (docs/dispatch.md): the facade ({@link DispatchService}), admission (docs/admission.md), the registry
 * view, cancels, and the reconciler's passes and the delay-queue pump, which the scheduler leader runs.
 */
@Module({
  imports: [MetadataModule, CoordinationModule, AdmissionModule],
  providers: [DispatchService, NodeRegistryService, ReconcilerService, DelayPump, CancelService, QuarantineService],
  exports: [DispatchService, NodeRegistryService, ReconcilerService, DelayPump, CancelService, AdmissionModule],
})
export class DispatchModule {}
