import { Module } from '@nestjs/common';
import {
  COUNTERS,
  type CounterPort,
  CoordinationModule,
  NODE_QUEUES,
  type NodeQueuePort,
} from '../coordination/index.js';
import { AppStatesModule, JobRunMetricsModule } from '../execution/index.js';
import { MetadataModule } from '../metadata/index.js';
import { AdmissionModule } from './admission/index.js';
import { CancelService } from './cancel.service.js';
import { DelayPump } from './delay-pump.js';
import { DispatchService } from './dispatch.service.js';
import { NodeRegistryService } from './node-registry.service.js';
import { QuarantineService } from './quarantine.service.js';
import { ReconcilerService } from './reconciler.service.js';
import { RoutingStrategies } from './routing/index.js';
import { ShardPlacement } from './shard-placement.js';
import { TakeBack } from './take-back.js';
import { UnadvertisedWaits } from './unadvertised-waits.js';

/**
 * Dispatch (docs/dispatch.md): the facade ({@link DispatchService}), admission (docs/admission.md), the registry
 * view, cancels, the scan of work waiting for an unadvertised handler ({@link UnadvertisedWaits}), and the
 * reconciler's passes and the delay-queue pump, which the scheduler leader runs.
 */
@Module({
  imports: [MetadataModule, CoordinationModule, AdmissionModule, JobRunMetricsModule, AppStatesModule],
  providers: [
    DispatchService,
    NodeRegistryService,
    ReconcilerService,
    DelayPump,
    CancelService,
    QuarantineService,
    TakeBack,
    UnadvertisedWaits,
    ShardPlacement,
    {
      provide: RoutingStrategies,
      inject: [COUNTERS, NODE_QUEUES],
      useFactory: (counters: CounterPort, queues: NodeQueuePort) => new RoutingStrategies({ counters, queues }),
    },
  ],
  exports: [
    DispatchService,
    NodeRegistryService,
    ReconcilerService,
    DelayPump,
    CancelService,
    TakeBack,
    UnadvertisedWaits,
    AdmissionModule,
  ],
})
export class DispatchModule {}
