import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { CallbackRegistration } from '../entities/index.js';

/** callback_registration I/O: an app's default callback URL (`handler` '') and one per handler name. */
@Injectable()
export class CallbackRegistrationRepository {
  private readonly repo: Repository<CallbackRegistration>;

  constructor(@InjectDataSource() ds: DataSource) {
    this.repo = ds.getRepository(CallbackRegistration);
  }

  /** Sets the URL of (`appId`, `handler`), inserting or replacing; `now` epoch ms. */
  async upsert(appId: string, handler: string, url: string, now: number, em?: EntityManager): Promise<void> {
    const repo = em ? em.getRepository(CallbackRegistration) : this.repo;
    const existing = await repo.findOneBy({ appId, handler });
    if (existing) await repo.update({ appId, handler }, { url, updatedAt: now });
    else await repo.insert({ appId, handler, url, createdAt: now, updatedAt: now });
  }

  /** Every registration of `appId`, the default ('') first, then by handler name. */
  listOf(appId: string): Promise<CallbackRegistration[]> {
    return this.repo.find({ where: { appId }, order: { handler: 'ASC' } });
  }

  /** Removes (`appId`, `handler`). @returns whether there was one. */
  async remove(appId: string, handler: string, em?: EntityManager): Promise<boolean> {
    const res = await (em ? em.getRepository(CallbackRegistration) : this.repo).delete({ appId, handler });
    return (res.affected ?? 0) > 0;
  }
}
