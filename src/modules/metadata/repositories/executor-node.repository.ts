import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { ExecutorNode } from '../entities/index.js';
import { isUniqueViolation } from './db-errors.js';

/** executor_node I/O: the registry's history (liveness itself is the coordination heartbeat). */
@Injectable()
export class ExecutorNodeRepository {
  private readonly repo: Repository<ExecutorNode>;

  constructor(@InjectDataSource() ds: DataSource) {
    this.repo = ds.getRepository(ExecutorNode);
  }

  /** Inserts a new node row; false when the id is taken (the caller tries the next sequence number). */
  async tryInsert(node: ExecutorNode): Promise<boolean> {
    try {
      await this.repo.insert(node);
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  /** The row of node `nodeId`, or null. */
  find(nodeId: string): Promise<ExecutorNode | null> {
    return this.repo.findOneBy({ nodeId });
  }

  async touch(nodeId: string, at: number): Promise<void> {
    await this.repo.update({ nodeId }, { lastSeenAt: at });
  }

  async markStopped(nodeId: string, at: number): Promise<void> {
    await this.repo.update({ nodeId }, { stoppedAt: at, lastSeenAt: at });
  }

  /** Node ids registered today for this host prefix (to pick the next `<host>-<yyyymmdd>-<seq>`). */
  countWithPrefix(prefix: string): Promise<number> {
    return this.repo
      .createQueryBuilder('n')
      .where('n.node_id LIKE :p', { p: `${prefix}%` })
      .getCount();
  }
}
