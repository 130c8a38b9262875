import { Injectable } from '@nestjs/common';
import { JobsService } from '../../jobs/index.js';
import { InstanceReads, type JobDefinition } from '../../metadata/index.js';
import { JobViewDto } from '../dto/job-view.dto.js';

/**
 * Job views as every /api/jobs route answers them: the definition, its next 5 fire times and its newest instance
 * (`lastRun`), read for a whole page in one statement (InstanceReads.lastRunsOf).
 */
@Injectable()
export class JobViews {
  constructor(
    private readonly jobs: JobsService,
    private readonly instances: InstanceReads,
  ) {}

  /** The view of one job. */
  async one(d: JobDefinition): Promise<JobViewDto> {
    return (await this.page([d]))[0];
  }

  /** The views of a page of jobs, in its order. */
  async page(defs: JobDefinition[]): Promise<JobViewDto[]> {
    const last = await this.instances.lastRunsOf(defs.map((d) => d.id));
    return defs.map((d) => JobViewDto.of(d, this.jobs.preview(d), last.get(d.id) ?? null));
  }
}
