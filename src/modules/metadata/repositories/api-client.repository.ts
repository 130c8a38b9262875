import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, QueryDeepPartialEntity, Repository } from 'typeorm';
import { ApiClient } from '../entities/index.js';

/** api_client I/O. Secrets arrive here already encrypted. */
@Injectable()
export class ApiClientRepository {
  private readonly repo: Repository<ApiClient>;

  constructor(@InjectDataSource() private readonly ds: DataSource) {
    this.repo = ds.getRepository(ApiClient);
  }

  /** Inserts a client, inside `em` when given. */
  async insert(client: ApiClient, em?: EntityManager): Promise<void> {
    await (em ? em.getRepository(ApiClient) : this.repo).insert(client);
  }

  /** Writes `patch` over client `appId` inside `em`. */
  async update(em: EntityManager, appId: string, patch: Partial<ApiClient>): Promise<void> {
    await em.getRepository(ApiClient).update({ appId }, patch as QueryDeepPartialEntity<ApiClient>);
  }

  /** The client `appId`, inside `em` when given. */
  findByAppId(appId: string, em?: EntityManager): Promise<ApiClient | null> {
    return (em ? em.getRepository(ApiClient) : this.repo).findOneBy({ appId });
  }

  /**
   * Reads client `appId` inside `em`, locking its row to the end of the unit of work (MySQL FOR UPDATE), so two
   * creates of one app's jobs count its jobs one after the other (MAX_JOBS_PER_APP). Null when there is none.
   */
  lockForUpdate(em: EntityManager, appId: string): Promise<ApiClient | null> {
    const qb = em.getRepository(ApiClient).createQueryBuilder('c').where('c.app_id = :appId', { appId });
    if (this.ds.options.type === 'mysql') qb.setLock('pessimistic_write');
    return qb.getOne();
  }

  /** A page of the clients by app id, and how many there are. */
  list(offset: number, limit: number): Promise<[ApiClient[], number]> {
    return this.repo.findAndCount({ order: { appId: 'ASC' }, skip: offset, take: limit });
  }

  /** The app ids of every disabled client (a full scan of a small table: one read per reconcile pass). */
  async disabledIds(): Promise<string[]> {
    return (await this.repo.find({ select: { appId: true }, where: { enabled: false } })).map((c) => c.appId);
  }

  count(): Promise<number> {
    return this.repo.count();
  }
}
