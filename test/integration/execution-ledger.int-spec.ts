import { DataSource } from 'typeorm';
import {
  UnitOfWork,
  ExecutionLedger,
  JobAttemptRepository,
  JobInstance,
  JobInstanceStatus as S,
  newJobInstance,
  TriggerSource,
} from '../../src/modules/metadata/index.js';
import { type InstanceQueries, type MetadataDb, openMetadataDb } from '../utils/metadata-db.js';
import { uniqueNamespace } from '../utils/test-node.js';

/**
 * ExecutionLedger on the real databases (docs/state-machine.md, docs/execution.md): the executor's
 * k-rows-per-statement claim and finish keep every per-row guard of a single transition (node, status, attempt,
 * fencing token).
 */
describe.each(['mysql', 'sqlite'] as const)('ExecutionLedger (%s)', (kind) => {
  const ns = uniqueNamespace(`int-ledger-${kind}`);
  let db: MetadataDb;
  let ds: DataSource;
  let ledger: ExecutionLedger;
  let instances: InstanceQueries;
  let attempts: JobAttemptRepository;

  beforeAll(async () => {
    db = await openMetadataDb(kind, ns);
    ({ ds, instances, attempts } = db);
    ledger = new ExecutionLedger(ds, instances.execution, instances.reads, attempts);
  });

  afterAll(() => db.close());

  /** `n` rows DISPATCHED to `node` at attempt 1, token 0. */
  async function dispatched(n: number, node = 'n-1'): Promise<JobInstance[]> {
    const rows = Array.from({ length: n }, (_, i) =>
      Object.assign(
        newJobInstance(
          {
            namespace: ns,
            appId: 'int',
            handler: 'h',
            fireTime: 1000 + i,
            triggerSource: TriggerSource.API,
            dueAt: 1,
            params: { i },
          },
          1,
        ),
        { status: S.DISPATCHED, nodeId: node, dispatchedAt: 1 },
      ),
    );
    await ds.getRepository(JobInstance).save(rows, { chunk: 100 });
    return rows;
  }

  /** What identifies attempt 1 of `id`, claimed at `startedAt` by n-1 with token 1. */
  const ended = (id: string, startedAt: number) => ({
    instanceId: id,
    attempt: 1,
    nodeId: 'n-1',
    fencingToken: 1,
    startedAt,
  });

  it('should claim in one go only the rows still dispatched to the node at the attempt and token read, writing no attempt row', async () => {
    const rows = await dispatched(4);
    const read = await ledger.findMany(rows.map((r) => r.id));
    expect(read.map((r) => r.params).sort((a, b) => (a as { i: number }).i - (b as { i: number }).i)).toEqual([
      { i: 0 },
      { i: 1 },
      { i: 2 },
      { i: 3 },
    ]);
    expect(read[0].fireTime).toEqual(expect.any(Number));
    // after the read, one row is taken back (the reconciler) and one re-routed to another node
    await instances.transitions.transition(rows[1].id, S.DISPATCHED, S.PENDING, { nodeId: 'n-1' }, { nodeId: null }, 2);
    await ds.query('UPDATE job_instance SET node_id = ? WHERE id = ?', ['n-2', rows[2].id]);
    const claimed = await UnitOfWork.for(ds).run((em) => ledger.claim(em, read, 'n-1', 5, 5 + 60_000));
    expect(claimed.map((c) => c.row.id).sort()).toEqual([rows[0].id, rows[3].id].sort());
    expect(claimed.every((c) => c.fencingToken === 1)).toBe(true);
    for (const c of claimed) {
      const now = await instances.reads.findById(c.row.id);
      expect(now).toMatchObject({
        status: S.RUNNING,
        fencingToken: 1,
        startedAt: 5,
        leaseUntil: 60_005,
        nodeId: 'n-1',
      });
      expect(c.startedAt).toBe(5);
      // the running attempt is read from the instance row until its end writes its row
      expect(
        (await attempts.listForInstance(c.row.id)).map((a) => [a.attempt, a.status, a.fencingToken, a.nodeId]),
      ).toEqual([[1, 'RUNNING', 1, 'n-1']]);
      const stored = await ds.query('SELECT COUNT(*) AS n FROM job_attempt WHERE instance_id = ?', [c.row.id]);
      expect(Number(stored[0].n)).toBe(0);
    }
    expect(await attempts.listForInstance(rows[1].id)).toEqual([]);
    // a second claim of the same read (a replayed batch) wins nothing more
    expect(await UnitOfWork.for(ds).run((em) => ledger.claim(em, read, 'n-1', 6, 6 + 60_000))).toEqual([]);
  });

  it('should write SUCCESS only under the current fencing token, count a repeat with the same time as won, and close the attempts', async () => {
    const rows = await dispatched(3);
    const claimed = await UnitOfWork.for(ds).run(async (em) =>
      ledger.claim(em, await ledger.findMany(rows.map((r) => r.id)), 'n-1', 10, 100_000),
    );
    expect(claimed).toHaveLength(3);
    // the lease of rows[2] was revoked and it runs again elsewhere (token 2): its old attempt must lose
    await ds.query('UPDATE job_instance SET fencing_token = 2, node_id = ? WHERE id = ?', ['n-2', rows[2].id]);
    const done = claimed.map((c, k) => ({
      id: c.row.id,
      attempt: 1,
      fencingToken: c.fencingToken,
      result: { k, text: 'é"\'' },
    }));
    const won = await UnitOfWork.for(ds).run(async (em) => {
      const w = await ledger.succeed(em, done, 20);
      await ledger.endAttempts(
        em,
        done.filter((d) => w.has(d.id)).map((d) => ({ ...ended(d.id, 10), status: S.SUCCESS, error: null })),
        20,
      );
      return w;
    });
    expect([...won].sort()).toEqual([rows[0].id, rows[1].id].sort());
    expect(await instances.reads.findById(rows[0].id)).toMatchObject({
      status: S.SUCCESS,
      result: { k: 0, text: 'é"\'' },
      finishedAt: 20,
      leaseUntil: null,
      error: null,
    });
    expect(await instances.reads.findById(rows[2].id)).toMatchObject({ status: S.RUNNING, fencingToken: 2 });
    expect(
      (await attempts.listForInstance(rows[0].id)).map((a) => [a.status, a.startedAt, a.finishedAt, a.nodeId]),
    ).toEqual([[S.SUCCESS, 10, 20, 'n-1']]);
    expect((await attempts.listForInstance(rows[2].id)).map((a) => [a.status, a.fencingToken, a.nodeId])).toEqual([
      ['RUNNING', 2, 'n-2'],
    ]);
    // the same write again (a retry after an unknown commit) is reported won, changes nothing
    expect([...(await ledger.succeed(undefined, done.slice(0, 2), 20))].sort()).toEqual(
      [rows[0].id, rows[1].id].sort(),
    );
    // with another time it is a different write, and it loses
    expect((await ledger.succeed(undefined, done.slice(0, 2), 21)).size).toBe(0);
  });

  it('should close each attempt with its own status and error, cutting long errors', async () => {
    const rows = await dispatched(2);
    await UnitOfWork.for(ds).run(async (em) =>
      ledger.claim(em, await ledger.findMany(rows.map((r) => r.id)), 'n-1', 30, 100_000),
    );
    await ledger.endAttempts(
      undefined,
      [
        { ...ended(rows[0].id, 30), status: S.TIMEOUT, error: 'x'.repeat(5000) },
        { ...ended(rows[1].id, 30), status: 'HANDED_BACK', error: null },
      ],
      40,
    );
    const a0 = (await attempts.listForInstance(rows[0].id))[0];
    expect([a0.status, a0.error?.length, a0.finishedAt]).toEqual([S.TIMEOUT, 4000, 40]);
    expect((await attempts.listForInstance(rows[1].id)).map((a) => [a.status, a.error])).toEqual([
      ['HANDED_BACK', null],
    ]);
    // an attempt row already closed is left as it is
    await ledger.endAttempts(undefined, [{ ...ended(rows[1].id, 30), status: S.SUCCESS, error: null }], 50);
    expect((await attempts.listForInstance(rows[1].id))[0].status).toBe('HANDED_BACK');
  });

  it('should close a RUNNING attempt row written before the end (a take-back, an older claim) instead of adding one', async () => {
    const rows = await dispatched(1);
    await ledger.claim(undefined, await ledger.findMany(rows.map((r) => r.id)), 'n-1', 80, 100_000);
    await attempts.start(rows[0].id, 1, 'n-1', 1, 80);
    const end = { ...ended(rows[0].id, 80), status: S.FAILED as const, error: 'boom', handlerEndedAt: 85 };
    await ledger.endAttempts(undefined, [end], 90);
    await ledger.endAttempts(undefined, [end], 91); // a retried write
    expect(
      (await attempts.listForInstance(rows[0].id)).map((a) => [a.status, a.error, a.handlerEndedAt, a.finishedAt]),
    ).toEqual([[S.FAILED, 'boom', 85, 90]]);
  });

  it('should carry more rows than one statement chunk', async () => {
    const rows = await dispatched(600, 'n-big');
    const claimed = await UnitOfWork.for(ds).run(async (em) =>
      ledger.claim(em, await ledger.findMany(rows.map((r) => r.id)), 'n-big', 60, 100_000),
    );
    expect(claimed).toHaveLength(600);
    const won = await UnitOfWork.for(ds).run((em) =>
      ledger.succeed(
        em,
        claimed.map((c) => ({ id: c.row.id, attempt: 1, fencingToken: 1, result: null })),
        70,
      ),
    );
    expect(won.size).toBe(600);
  });
});
