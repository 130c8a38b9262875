import { DataSource } from 'typeorm';
import {
  dataSourceOptions,
  JobAttemptRepository,
  JobInstance,
  JobInstanceRepository,
  JobInstanceStatus as S,
  newJobInstance,
  runMigrations,
  TriggerSource,
} from '../../src/modules/metadata/index.js';
import { MYSQL_URL, uniqueNamespace } from '../utils/test-node.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';

/**
 * JobInstanceRepository.together on the real MariaDB: a transition and the attempt row it closes commit
 * together or not at all, so a process dying between them cannot leave an attempt RUNNING for ever.
 */
describe('JobInstanceRepository.together (MariaDB)', () => {
  const ns = uniqueNamespace('int-together');
  let ds: DataSource;
  let instances: JobInstanceRepository;
  let attempts: JobAttemptRepository;

  beforeAll(async () => {
    ds = await new DataSource(dataSourceOptions({ database: { type: 'mysql', url: MYSQL_URL } })).initialize();
    await runMigrations(ds);
    instances = new JobInstanceRepository(ds);
    attempts = new JobAttemptRepository(ds);
  });

  afterAll(async () => {
    await deleteNamespaceRows(ds, ns);
    await ds.destroy();
  });

  /** A RUNNING instance at attempt 1, token 1, with its RUNNING attempt row. */
  async function running(): Promise<string> {
    const row = newJobInstance(
      { namespace: ns, appId: 'int', handler: 'h', fireTime: 1, triggerSource: TriggerSource.API, dueAt: 1 },
      1,
    );
    Object.assign(row, { status: S.RUNNING, nodeId: 'n-1', fencingToken: 1, startedAt: 1 });
    await ds.getRepository(JobInstance).save(row);
    await attempts.start(row.id, 1, 'n-1', 1, 1);
    return row.id;
  }

  const state = async (id: string) => ({
    instance: (await instances.findById(id))?.status,
    attempt: (await attempts.listForInstance(id)).map((a) => a.status),
  });

  it('should commit the finishing write and the attempt close together', async () => {
    const id = await running();
    const won = await instances.together(async (em) => {
      const ok = await instances.transition(
        id,
        S.RUNNING,
        S.SUCCESS,
        { attempt: 1, fencingToken: 1 },
        { finishedAt: 2 },
        2,
        em,
      );
      await attempts.finish(id, 1, S.SUCCESS, null, 2, em);
      return ok;
    });
    expect(won).toBe(true);
    expect(await state(id)).toEqual({ instance: S.SUCCESS, attempt: [S.SUCCESS] });
  });

  it('should leave both untouched when the work fails after the first write (as a dying process would)', async () => {
    const id = await running();
    await expect(
      instances.together(async (em) => {
        await instances.transition(id, S.RUNNING, S.SUCCESS, { attempt: 1, fencingToken: 1 }, { finishedAt: 2 }, 2, em);
        throw new Error('killed between the two writes');
      }),
    ).rejects.toThrow('killed between');
    expect(await state(id)).toEqual({ instance: S.RUNNING, attempt: ['RUNNING'] });
  });
});
