import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { newId } from '../../../common/index.js';
import { JobAttempt } from '../entities/index.js';

/** job_attempt I/O: one row per attempt, so every re-run can be traced to a node and a fencing token. */
@Injectable()
export class JobAttemptRepository {
  private readonly repo: Repository<JobAttempt>;

  constructor(@InjectDataSource() ds: DataSource) {
    this.repo = ds.getRepository(JobAttempt);
  }

  /**
   * Records the start of an attempt (status RUNNING). A second start of the same attempt is ignored.
   * `em`: inside that transaction (JobInstanceRepository.together).
   */
  async start(instanceId: string, attempt: number, nodeId: string, fencingToken: number, startedAt: number, em?: EntityManager): Promise<void> {
    await this.on(em)
      .createQueryBuilder()
      .insert()
      .values({ id: newId(), instanceId, attempt, nodeId, fencingToken, status: 'RUNNING', startedAt, finishedAt: null, error: null })
      .orIgnore()
      .execute();
  }

  /**
   * Records how an attempt ended (SUCCESS, FAILED, TIMEOUT, CANCELLED, LEASE_LOST, NODE_LOST); only a RUNNING
   * attempt row changes. `em`: inside that transaction (JobInstanceRepository.together).
   */
  async finish(instanceId: string, attempt: number, status: string, error: string | null, finishedAt: number, em?: EntityManager): Promise<void> {
    await this.on(em)
      .createQueryBuilder()
      .update(JobAttempt)
      .set({ status, error: error ? error.slice(0, 4000) : null, finishedAt })
      .where('instance_id = :instanceId AND attempt = :attempt AND status = :running', { instanceId, attempt, running: 'RUNNING' })
      .execute();
  }

  private on(em: EntityManager | undefined): Repository<JobAttempt> {
    return em ? em.getRepository(JobAttempt) : this.repo;
  }

  listForInstance(instanceId: string): Promise<JobAttempt[]> {
    return this.repo.find({ where: { instanceId }, order: { attempt: 'ASC' } });
  }
}
