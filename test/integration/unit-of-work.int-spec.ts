import {
  AttemptStatus,
  type JobAttemptRepository,
  JobInstance,
  JobInstanceStatus as S,
  type Tx,
  UnitOfWork,
} from '../../src/modules/metadata/index.js';
import {
  instanceAndAttempts,
  type InstanceQueries,
  type MetadataDb,
  openMetadataDb,
  runningInstance,
} from '../utils/metadata-db.js';
import { uniqueNamespace } from '../utils/test-node.js';

/**
 * UnitOfWork.run on the real MariaDB and SQLite: the same calls give the same rows on both (commit together,
 * roll back together, a nested run joins, a retried run commits once, a run begun after another ended is its own).
 * A transition and the attempt row it closes commit together or not at all, so a process dying between them
 * cannot leave an attempt RUNNING for ever.
 */
describe.each(['mysql', 'sqlite'] as const)('UnitOfWork (%s)', (kind) => {
  const ns = uniqueNamespace(`int-uow-${kind}`);
  let db: MetadataDb;
  let uow: UnitOfWork;
  let instances: InstanceQueries;
  let attempts: JobAttemptRepository;

  beforeAll(async () => {
    db = await openMetadataDb(kind, ns);
    ({ instances, attempts } = db);
    uow = UnitOfWork.for(db.ds);
  });

  afterAll(() => db.close());

  const running = () => runningInstance(db, ns);
  const state = (id: string) => instanceAndAttempts(db, id);

  /** The finishing write and the attempt close, inside `tx`. */
  const finish = async (tx: Tx, id: string) => {
    const guard = { attempt: 1, fencingToken: 1 };
    const won = await instances.transitions.transition(id, S.RUNNING, S.SUCCESS, guard, { finishedAt: 2 }, 2, tx);
    await attempts.finish(id, 1, AttemptStatus.SUCCESS, null, 2, tx);
    return won;
  };

  it('should be one instance per DataSource', () => {
    expect(UnitOfWork.for(db.ds)).toBe(uow);
  });

  it('should commit every write of the function together and return its value', async () => {
    const id = await running();
    await expect(uow.run((tx) => finish(tx, id))).resolves.toBe(true);
    expect(await state(id)).toEqual({ instance: S.SUCCESS, attempt: [AttemptStatus.SUCCESS] });
  });

  it('should roll every write back and rethrow when the function throws', async () => {
    const id = await running();
    await expect(
      uow.run(async (tx) => {
        await finish(tx, id);
        throw new Error('killed after both writes');
      }),
    ).rejects.toThrow('killed after both writes');
    expect(await state(id)).toEqual({ instance: S.RUNNING, attempt: [AttemptStatus.RUNNING] });
  });

  it('should do the same at READ COMMITTED', async () => {
    const [a, b] = [await running(), await running()];
    await uow.run((tx) => finish(tx, a), { isolation: 'READ COMMITTED' });
    await expect(
      uow.run(
        async (tx) => {
          await finish(tx, b);
          throw new Error('no');
        },
        { isolation: 'READ COMMITTED' },
      ),
    ).rejects.toThrow('no');
    expect([await state(a), await state(b)]).toEqual([
      { instance: S.SUCCESS, attempt: [AttemptStatus.SUCCESS] },
      { instance: S.RUNNING, attempt: [AttemptStatus.RUNNING] },
    ]);
  });

  it('should let a nested run join the outer transaction and roll back with it', async () => {
    const id = await running();
    await expect(
      uow.run(async (outer) => {
        await uow.run(async (inner) => {
          expect(inner).toBe(outer);
          await finish(inner, id);
        });
        expect((await outer.getRepository(JobInstance).findOneBy({ id }))?.status).toBe(S.SUCCESS);
        throw new Error('outer fails after the inner run returned');
      }),
    ).rejects.toThrow('outer fails');
    expect(await state(id)).toEqual({ instance: S.RUNNING, attempt: [AttemptStatus.RUNNING] });
  });

  it('should rerun the whole function in a new transaction after a transient error when asked', async () => {
    const id = await running();
    let tries = 0;
    const won = await uow.run(
      async (tx) => {
        const w = await finish(tx, id);
        if (++tries === 1) throw Object.assign(new Error('deadlock'), { errno: 1213 });
        return w;
      },
      { retryMs: 1000 },
    );
    expect([tries, won]).toEqual([2, true]);
    expect(await state(id)).toEqual({ instance: S.SUCCESS, attempt: [AttemptStatus.SUCCESS] });
    await expect(
      uow.run(
        async () => {
          throw new Error('not transient');
        },
        { retryMs: 1000 },
      ),
    ).rejects.toThrow('not transient');
  });

  it('should give a run begun after its creator committed (a timer set inside it) a transaction of its own', async () => {
    const [a, b] = [await running(), await running()];
    let later: Promise<unknown> = Promise.resolve();
    await uow.run(async (tx) => {
      await finish(tx, a);
      later = new Promise((resolve) => setTimeout(resolve, 20)).then(() =>
        uow.run(async (own) => {
          await finish(own, b);
          throw new Error('the later run fails alone');
        }),
      );
    });
    await expect(later).rejects.toThrow('the later run fails alone');
    expect([await state(a), await state(b)]).toEqual([
      { instance: S.SUCCESS, attempt: [AttemptStatus.SUCCESS] },
      { instance: S.RUNNING, attempt: [AttemptStatus.RUNNING] },
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
      { instance: S.RUNNING, attempt: [AttemptStatus.RUNNING] },
      { instance: S.SUCCESS, attempt: [AttemptStatus.SUCCESS] },
    ]);
  });
});

/**
 * lockRetries on the real MariaDB: two units lock two rows in opposite orders, so InnoDB picks one as the deadlock
 * victim (1213) and rolls it back whole; with lockRetries the victim runs again and both commit.
 */
describe('UnitOfWork lockRetries (mysql)', () => {
  const ns = uniqueNamespace('int-uow-locks');
  const table = `uow_lock_${ns.replace(/[^a-z0-9]/g, '_')}`;
  let db: MetadataDb;
  let uow: UnitOfWork;

  beforeAll(async () => {
    db = await openMetadataDb('mysql', ns);
    uow = UnitOfWork.for(db.ds);
    await db.ds.query(`CREATE TABLE ${table} (id INT PRIMARY KEY, n INT NOT NULL) ENGINE=InnoDB`);
  });

  beforeEach(() => db.ds.query(`REPLACE INTO ${table} VALUES (1, 0), (2, 0)`));

  afterAll(async () => {
    await db.ds.query(`DROP TABLE IF EXISTS ${table}`);
    await db.close();
  });

  /** Two units crossing on rows 1 and 2; `runs` counts each unit's executions. */
  async function cross(options: { lockRetries?: number }): Promise<{ results: string[]; runs: number[] }> {
    const runs = [0, 0];
    let arrived = 0;
    let release!: () => void;
    const bothHoldOne = new Promise<void>((r) => (release = r));
    const unit = (i: number, first: number, second: number) =>
      uow.run(async (tx) => {
        runs[i]++;
        await tx.query(`UPDATE ${table} SET n = n + 1 WHERE id = ?`, [first]);
        if (++arrived === 2) release();
        await bothHoldOne; // a rerun finds it resolved and goes on
        await tx.query(`UPDATE ${table} SET n = n + 1 WHERE id = ?`, [second]);
      }, options);
    const settled = await Promise.allSettled([unit(0, 1, 2), unit(1, 2, 1)]);
    const results = settled.map((s) =>
      s.status === 'fulfilled' ? 'ok' : String((s.reason as { driverError?: { errno?: number } }).driverError?.errno),
    );
    return { results, runs };
  }

  it('should fail the deadlock victim without lockRetries', async () => {
    const { results } = await cross({});
    expect(results.sort()).toEqual(['1213', 'ok']);
  });

  it('should run the victim again after its rollback and commit both with lockRetries', async () => {
    const { results, runs } = await cross({ lockRetries: 2 });
    expect(results).toEqual(['ok', 'ok']);
    expect(runs.sort()).toEqual([1, 2]);
    const rows: Array<{ n: number }> = await db.ds.query(`SELECT n FROM ${table} ORDER BY id`);
    expect(rows.map((r) => Number(r.n))).toEqual([2, 2]); // the victim's first run left nothing behind
  });
});
