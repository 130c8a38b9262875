import { DynamicModule, Module } from '@nestjs/common';
import { CoordinationModule } from '../coordination/index.js';
import { DispatchModule } from '../dispatch/index.js';
import { ExecutionCoreModule, type ExecutionHooks } from '../execution/index.js';
import { MetadataModule } from '../metadata/index.js';
import { WorkerClaims } from './worker-claims.js';
import { WorkerNodes } from './worker-nodes.js';

/**
 * App workers' side of the api role (docs/workers.md): their nodes ({@link WorkerNodes}) and claims
 * ({@link WorkerClaims}) over execution's writers without an executor (`ExecutionCoreModule`: no claim loop, no
 * membership of the api's own). Domain only: the openapi module serves its routes.
 */
@Module({})
export class WorkersModule {
  static forRoot(hooks: ExecutionHooks): DynamicModule {
    const core = ExecutionCoreModule.forRoot(hooks);
    return {
      module: WorkersModule,
      imports: [MetadataModule, CoordinationModule, DispatchModule, core],
      providers: [WorkerNodes, WorkerClaims],
      exports: [WorkerNodes, WorkerClaims, core],
    };
  }
}
