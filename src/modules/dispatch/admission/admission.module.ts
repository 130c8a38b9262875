import { Module } from '@nestjs/common';
import { CoordinationModule } from '../../coordination/index.js';
import { ATTEMPT_ADMISSION } from '../../execution/index.js';
import { MetadataModule } from '../../metadata/index.js';
import { Admission } from './admission.service.js';
import { JobSemaphore } from './job-semaphore.js';
import { WaitingTurns } from './waiting-turns.js';

/** Admission (docs/admission.md) for dispatch, and for the executor (ATTEMPT_ADMISSION) when attempts end. */
@Module({
  imports: [MetadataModule, CoordinationModule],
  providers: [Admission, JobSemaphore, WaitingTurns, { provide: ATTEMPT_ADMISSION, useExisting: Admission }],
  exports: [Admission, ATTEMPT_ADMISSION],
})
export class AdmissionModule {}
