import { Module } from '@nestjs/common';
import { CoordinationModule } from '../../coordination/coordination.module.js';
import { MetadataModule } from '../../metadata/index.js';
import { Admission } from './admission.service.js';
import { JobSemaphore } from './job-semaphore.js';
import { WaitingTurns } from './waiting-turns.js';

/** Admission (docs/admission.md) for dispatch and for the executor, which frees slots when attempts end. */
@Module({
  imports: [MetadataModule, CoordinationModule],
  providers: [Admission, JobSemaphore, WaitingTurns],
  exports: [Admission],
})
export class AdmissionModule {}
