import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import {
  AttemptStatus, dataSourceOptions, JobAttemptRepository, JobInstance, JobInstanceRepository, JobInstanceStatus as S,
  newJobInstance, runMigrations, TriggerSource, UnitOfWork,
} from '../../src/modules/metadata/index.js';
import { MYSQL_URL, uniqueNamespace } from '../utils/test-node.js';

/**
 * UnitOfWork.run on the real MariaDB and SQLite: the same calls give the same rows on both (commit together,
 * roll back together, a nested run joins, a retried run commits once, a run begun after another ended is its own).
 */
describe.each(['mysql', 'sqlite'] as const)('UnitOfWork (%s)', (kind) => {
  const ns = uniqueNamespace(`int-uow-${kind}`);
  let dir: string | undefined;
  let ds: DataSource;
  let uow: UnitOfWork;
  let instances: JobInstanceRepository;
  let attempts: JobAttemptRepository;

  beforeAll(async () => {
    if (kind === 'sqlite') dir = mkdtempSync(join(tmpdir(), 'tw-uow-'));
    const database = kind === 'mysql'
      ? { type: 'mysql' as const, url: MYSQL_URL }
      : { type: 'better-sqlite3' as const, path: join(dir as string, 'db.sqlite') };
    ds = await new DataSource(dataSourceOptions({ database })).initialize();
    await runMigrations(ds);
    uow = UnitOfWork.for(ds);
    instances = new JobInstanceRepository(ds);
    attempts = new JobAttemptRepository(ds);
  });

  afterAll(async () => {
    if (kind === 'mysql') {
      await ds.query('DELETE a FROM job_attempt a JOIN job_instance i ON i.id = a.instance_id WHERE i.namespace = ?', [ns]);
      await ds.query('DELETE FROM job_instance WHERE namespace = ?', [ns]);
    }
    await ds.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A RUNNING instance at attempt 1, token 1, with its RUNNING attempt row. */
  async function running(): Promise<string> {
    const row = newJobInstance({ namespace: ns, appId: 'int', handler: 'h', fireTime: 1, triggerSource: TriggerSource.API, dueAt: 1 }, 1);
    Object.assign(row, { status: S.RUNNING, nodeId: 'n-1', fencingToken: 1, startedAt: 1 });
    await ds.getRepository(JobInstance).save(row);
    await attempts.start(row.id, 1, 'n-1', 1, 1);
    return row.id;
  }

  const state = async (id: string) => ({
    instance: (await instances.findById(id))?.status,
    attempt: (await attempts.listForInstance(id)).map((a) => a.status),
  });

  /** The finishing write and the attempt close, inside `tx`. */
  const finish = async (tx: Parameters<Parameters<UnitOfWork['run']>[0]>[0], id: string) => {
    const won = await instances.transition(id, S.RUNNING, S.SUCCESS, { attempt: 1, fencingToken: 1 }, { finishedAt: 2 }, 2, tx);
    await attempts.finish(id, 1, AttemptStatus.SUCCESS, null, 2, tx);
    return won;
  };

  it('should be one instance per DataSource', () => {
    expect(UnitOfWork.for(ds)).toBe(uow);
  });

  it('should commit every write of the function together and return its value', async () => {
    const id = await running();
    await expect(uow.run((tx) => finish(tx, id))).resolves.toBe(true);
    expect(await state(id)).toEqual({ instance: S.SUCCESS, attempt: [AttemptStatus.SUCCESS] });
  });

  it('should roll every write back and rethrow when the function throws', async () => {
    const id = await running();
    await expect(uow.run(async (tx) => {
      await finish(tx, id);
      throw new Error('killed after both writes');
    })).rejects.toThrow('killed after both writes');
    expect(await state(id)).toEqual({ instance: S.RUNNING, attempt: [AttemptStatus.RUNNING] });
  });

  it('should do the same at READ COMMITTED', async () => {
    const [a, b] = [await running(), await running()];
    await uow.run((tx) => finish(tx, a), { isolation: 'READ COMMITTED' });
    await expect(uow.run(async (tx) => {
      await finish(tx, b);
      throw new Error('no');
    }, { isolation: 'READ COMMITTED' })).rejects.toThrow('no');
    expect([await state(a), await state(b)]).toEqual([
      { instance: S.SUCCESS, attempt: [AttemptStatus.SUCCESS] }, { instance: S.RUNNING, attempt: [AttemptStatus.RUNNING] },
    ]);
  });

  it('should let a nested run join the outer transaction and roll back with it', async () => {
    const id = await running();
    await expect(uow.run(async (outer) => {
      await uow.run(async (inner) => {
        expect(inner).toBe(outer);
        await finish(inner, id);
      });
      expect((await outer.getRepository(JobInstance).findOneBy({ id }))?.status).toBe(S.SUCCESS);
      throw new Error('outer fails after the inner run returned');
    })).rejects.toThrow('outer fails');
    expect(await state(id)).toEqual({ instance: S.RUNNING, attempt: [AttemptStatus.RUNNING] });
  });

  it('should rerun the whole function in a new transaction after a transient error when asked, committing once', async () => {
    const id = await running();
    let tries = 0;
    const won = await uow.run(async (tx) => {
      const w = await finish(tx, id);
      if (++tries === 1) throw Object.assign(new Error('deadlock'), { errno: 1213 });
      return w;
    }, { retryMs: 1000 });
    expect([tries, won]).toEqual([2, true]);
    expect(await state(id)).toEqual({ instance: S.SUCCESS, attempt: [AttemptStatus.SUCCESS] });
    await expect(uow.run(async () => {
      throw new Error('not transient');
    }, { retryMs: 1000 })).rejects.toThrow('not transient');
  });

  it('should give a run begun after its creator committed (a timer set inside it) a transaction of its own', async () => {
    const [a, b] = [await running(), await running()];
    let later: Promise<unknown> = Promise.resolve();
    await uow.run(async (tx) => {
      await finish(tx, a);
      later = new Promise((resolve) => setTimeout(resolve, 20)).then(() => uow.run(async (own) => {
        await finish(own, b);
        throw new Error('the later run fails alone');
      }));
    });
    await expect(later).rejects.toThrow('the later run fails alone');
    expect([await state(a), await state(b)]).toEqual([
      { instance: S.SUCCESS, attempt: [AttemptStatus.SUCCESS] }, { instance: S.RUNNING, attempt: [AttemptStatus.RUNNING] },
    ]);
  });

  it('should run concurrent units without losing either and roll back only the failing one', async () => {
    const [a, b] = [await running(), await running()];
    const results = await Promise.allSettled([
      uow.run(async (tx) => {
        await finish(tx, a);
        await new Promise((r) => setTimeout(r, 10));
        throw new Error('a fails');
      }),
      uow.run((tx) => finish(tx, b)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled']);
    expect([await state(a), await state(b)]).toEqual([
      { instance: S.RUNNING, attempt: [AttemptStatus.RUNNING] }, { instance: S.SUCCESS, attempt: [AttemptStatus.SUCCESS] },
    ]);
  });
});
