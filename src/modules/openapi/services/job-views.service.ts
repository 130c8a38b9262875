import { Injectable } from '@nestjs/common';
import { JobsService } from '../../jobs/index.js';
import {
  InstanceReads,
  type JobDefinition,
  RoutingStrategy,
  ShardAssignmentRepository,
} from '../../metadata/index.js';
import { JobViewDto } from '../dto/job-view.dto.js';

/**
 * Job views as every /api/jobs route answers them: the definition, its next 5 fire times and its newest instance
 * (`lastRun`), read for a whole page in one statement (InstanceReads.lastRunsOf), and a sharded job's resharding.
 */
@Injectable()
export class JobViews {
  constructor(
    private readonly jobs: JobsService,
    private readonly instances: InstanceReads,
    private readonly shards: ShardAssignmentRepository,
  ) {}

  /** The view of one job. */
  async one(d: JobDefinition): Promise<JobViewDto> {
    return (await this.page([d]))[0];
  }

  /** The views of a page of jobs, in its order. */
  async page(defs: JobDefinition[]): Promise<JobViewDto[]> {
    const last = await this.instances.lastRunsOf(defs.map((d) => d.id));
    const sharded = defs.filter((d) => d.routingStrategy === RoutingStrategy.SHARDING_BROADCAST).map((d) => d.id);
    const resharding = await this.shards.progressOf(sharded);
    return defs.map((d) =>
      JobViewDto.of(d, this.jobs.preview(d), last.get(d.id) ?? null, resharding.get(d.id) ?? null),
    );
  }
}
