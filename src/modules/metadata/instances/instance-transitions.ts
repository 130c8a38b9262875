import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, QueryDeepPartialEntity } from 'typeorm';
import { JobInstance } from '../entities/job-instance.entity.js';
import { JobInstanceStatus } from '../state-machine/job-instance-status.js';
import { InstanceTable } from './instance-table.js';
import { StagedKind, statusChange } from './staged.js';

/** Extra conditions of a transition's WHERE clause (docs/state-machine.md): each must hold for the write to win. */
export interface TransitionGuard {
  attempt?: number;
  fencingToken?: number;
  nodeId?: string;
}

/** One row's status change (docs/state-machine.md): cancel, quarantine, admission, take-backs, finishes, hand-backs. */
@Injectable()
export class InstanceTransitions {
  private readonly t: InstanceTable;

  constructor(@InjectDataSource() ds: DataSource) {
    this.t = InstanceTable.of(ds);
  }

  /**
   * Conditional `from → to` of row `id` with `patch`, inside `em` when given; clears the staged mark, or writes
   * `staging` when that is a staging write (a fire handed back unreleased). @returns whether this write won (false:
   * another writer moved the row first). @throws SchedulerError(ILLEGAL_TRANSITION).
   */
  async transition(
    id: string,
    from: JobInstanceStatus,
    to: JobInstanceStatus,
    guard: TransitionGuard,
    patch: Partial<JobInstance>,
    now: number,
    em?: EntityManager,
    staging: StagedKind | null = null,
  ): Promise<boolean> {
    const change = statusChange(from, to, staging);
    const qb = (em ? em.getRepository(JobInstance) : this.t.repo)
      .createQueryBuilder()
      .update(JobInstance)
      .set({ ...patch, ...change, updatedAt: now } as QueryDeepPartialEntity<JobInstance>)
      .where('id = :id', { id })
      .andWhere('status = :from', { from });
    if (guard.attempt !== undefined) qb.andWhere('attempt = :attempt', { attempt: guard.attempt });
    if (guard.fencingToken !== undefined) qb.andWhere('fencing_token = :token', { token: guard.fencingToken });
    if (guard.nodeId !== undefined) qb.andWhere('node_id = :nodeId', { nodeId: guard.nodeId });
    const res = await qb.execute();
    return res.affected === 1;
  }
}
