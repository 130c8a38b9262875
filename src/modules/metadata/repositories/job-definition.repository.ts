import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, LessThanOrEqual, QueryDeepPartialEntity, Repository } from 'typeorm';
import { ConflictError, NotFoundError } from '../../../common/index.js';
import { JobDefinition } from '../entities/index.js';
import { isUniqueViolation } from './db-errors.js';

/** job_definition I/O. Updates use the `version` column as an optimistic lock. */
@Injectable()
export class JobDefinitionRepository {
  private readonly repo: Repository<JobDefinition>;

  constructor(@InjectDataSource() private readonly ds: DataSource) {
    this.repo = ds.getRepository(JobDefinition);
  }

  /** @throws ConflictError(field code) when the code already exists in the namespace. */
  async create(def: JobDefinition): Promise<JobDefinition> {
    try {
      await this.repo.insert(def as QueryDeepPartialEntity<JobDefinition>);
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(`job code '${def.code}' already exists`, 'code');
      throw err;
    }
    return (await this.findById(def.namespace, def.id)) as JobDefinition;
  }

  /**
   * Writes `patch` if the row still has `expectedVersion`, bumping the version.
   * @throws ConflictError when the row changed in between (or the new code collides).
   */
  async update(def: JobDefinition, patch: Partial<JobDefinition>): Promise<JobDefinition> {
    let affected: number | undefined;
    try {
      const res = await this.repo
        .createQueryBuilder()
        .update(JobDefinition)
        .set({ ...patch, version: def.version + 1 } as QueryDeepPartialEntity<JobDefinition>)
        .where('id = :id AND version = :v', { id: def.id, v: def.version })
        .execute();
      affected = res.affected;
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(`job code '${patch.code}' already exists`, 'code');
      throw err;
    }
    if (affected !== 1) throw new ConflictError(`job '${def.code}' was changed concurrently; read it again and retry`);
    return (await this.findById(def.namespace, def.id)) as JobDefinition;
  }

  async delete(namespace: string, id: string): Promise<void> {
    const res = await this.repo.delete({ namespace, id });
    if (res.affected !== 1) throw new NotFoundError('job', id);
  }

  findById(namespace: string, id: string): Promise<JobDefinition | null> {
    return this.repo.findOneBy({ namespace, id });
  }

  findByCode(namespace: string, code: string): Promise<JobDefinition | null> {
    return this.repo.findOneBy({ namespace, code });
  }

  list(namespace: string, offset: number, limit: number): Promise<[JobDefinition[], number]> {
    return this.repo.findAndCount({ where: { namespace }, order: { code: 'ASC' }, skip: offset, take: limit });
  }

  /** Enabled jobs with next_fire_time at or before `until`, earliest first (the trigger's page scan). */
  findDue(namespace: string, until: number, limit: number): Promise<JobDefinition[]> {
    return this.repo.find({
      where: { namespace, enabled: true, nextFireTime: LessThanOrEqual(until) },
      order: { nextFireTime: 'ASC' },
      take: limit,
    });
  }

  /** Earliest next_fire_time of an enabled job, or null. */
  async earliestNextFire(namespace: string): Promise<number | null> {
    const row = await this.repo
      .createQueryBuilder('j')
      .select('MIN(j.next_fire_time)', 'm')
      .where('j.namespace = :namespace AND j.enabled = :en', { namespace, en: true })
      .getRawOne<{ m: string | number | null }>();
    return row?.m === null || row?.m === undefined ? null : Number(row.m);
  }

  /**
   * Moves a job's schedule forward inside the firing transaction, only if next_fire_time is still
   * `expectedNext` (another leader that already advanced it makes this a no-op).
   */
  async advance(
    em: EntityManager,
    id: string,
    expectedNext: number,
    patch: Pick<JobDefinition, 'nextFireTime'> & Partial<JobDefinition>,
  ): Promise<boolean> {
    const res = await em
      .createQueryBuilder()
      .update(JobDefinition)
      .set(patch as QueryDeepPartialEntity<JobDefinition>)
      .where('id = :id AND next_fire_time = :n', { id, n: expectedNext })
      .execute();
    return res.affected === 1;
  }

  /** Sets next_fire_time outside firing (FIXED_DELAY after a finish, resume). */
  async setNextFire(id: string, nextFireTime: number | null, now: number): Promise<void> {
    await this.repo.update({ id }, { nextFireTime, updatedAt: now });
  }

  /** Runs `fn` in one transaction (the fire ledger: instance rows + schedule advance together, DESIGN §5). */
  transaction<T>(fn: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.ds.transaction(fn);
  }
}
