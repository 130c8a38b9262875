import { randomUUID } from 'node:crypto';
import { In } from 'typeorm';
import { clockAt } from '../fakes/fake-clock.js';
import { FinishWriter, type FinishingWrite } from '../../src/modules/execution/finish-writer.js';
import {
  CallbackDelivery,
  CallbackDeliveryRepository,
  CallbackRegistration,
  CallbackState,
  ExecutionLedger,
  type FinalInstance,
  JobInstance,
  JobInstanceStatus as S,
  newJobInstance,
  TriggerSource,
  type Tx,
  UnitOfWork,
} from '../../src/modules/metadata/index.js';
import { type MetadataDb, openMetadataDb } from '../utils/metadata-db.js';
import { uniqueNamespace } from '../utils/test-node.js';

/**
 * The finish writer's outbox writes (docs/callbacks.md "Outbox", docs/execution.md "Group commit") on both
 * databases: each write that wins SUCCESS, FAILED or TIMEOUT gets exactly one delivery in the round's
 * transaction, at the URL the resolution order picks (the instance's own, the handler's registration, the app's
 * default); a retry, a stale token and an instance with no URL get none; a round that rolls back leaves none; the
 * same write retried after its commit (isOwnEarlierWrite, succeedMany's own-write check) makes no second one.
 */
describe.each(['mysql', 'sqlite'] as const)('FinishWriter callback outbox (%s)', (kind) => {
  const ns = uniqueNamespace(`int-outbox-${kind}`);
  const app = `ob-${randomUUID().slice(0, 8)}`;
  const bare = `${app}-bare`; // an app with no registration
  const T = 1_800_000_000_000;
  let db: MetadataDb;
  let writer: FinishWriter;

  /** A writer whose outbox is `deliveries` (the real one unless given). */
  function writerWith(deliveries: CallbackDeliveryRepository): FinishWriter {
    const { ds, instances, attempts } = db;
    const ledger = new ExecutionLedger(ds, instances.execution, instances.reads, attempts);
    return new FinishWriter(
      instances.transitions,
      ledger,
      UnitOfWork.for(ds),
      deliveries,
      clockAt(() => T),
      { leaseMs: 180_000 },
    );
  }

  beforeAll(async () => {
    db = await openMetadataDb(kind, ns);
    writer = writerWith(new CallbackDeliveryRepository(db.ds));
    const reg = (handler: string, url: string) =>
      Object.assign(new CallbackRegistration(), { appId: app, handler, url, createdAt: T, updatedAt: T });
    await db.ds
      .getRepository(CallbackRegistration)
      .save([reg('', 'https://default.example/cb'), reg('h-reg', 'https://handler.example/cb')]);
  });

  afterAll(async () => {
    await db.ds.query('DELETE FROM callback_delivery WHERE app_id IN (?, ?)', [app, bare]);
    await db.ds.query('DELETE FROM callback_registration WHERE app_id = ?', [app]);
    await db.close();
  });

  /** A RUNNING instance (attempt 1 of `maxAttempts`, token 1) with its RUNNING attempt row. */
  async function running(f: Partial<JobInstance> = {}): Promise<JobInstance> {
    const base = { namespace: ns, appId: app, handler: 'h', fireTime: 1, triggerSource: TriggerSource.API, dueAt: 1 };
    const row = Object.assign(newJobInstance(base, T - 10), { status: S.RUNNING, nodeId: 'n-1' }, f, {
      fencingToken: 1,
      startedAt: T - 5,
    });
    await db.ds.getRepository(JobInstance).save(row);
    await db.attempts.start(row.id, 1, 'n-1', 1, T - 5);
    return row;
  }

  /** The write decideOutcome makes for `status` (a retry when PENDING), at `at`. */
  function write(row: JobInstance, status: S, at = T): FinishingWrite {
    const base = { row, token: 1, nodeId: 'n-1', startedAt: T - 5, status, at };
    if (status === S.SUCCESS) return { ...base, outcome: { status, result: 1 }, patch: { result: 1, finishedAt: at } };
    if (status === S.PENDING)
      return {
        ...base,
        outcome: { status: S.FAILED, error: 'boom' },
        patch: { attempt: 2, nodeId: null, leaseUntil: null, dueAt: at + 1000, error: 'boom' },
      };
    const outcome = { status: status as S.FAILED | S.TIMEOUT, error: `${status} here` };
    return { ...base, outcome, patch: { error: outcome.error, leaseUntil: null, finishedAt: at } };
  }

  const deliveries = async (rows: JobInstance[]) =>
    db.ds.getRepository(CallbackDelivery).findBy({ instanceId: In(rows.map((r) => r.id)) });
  const urlOf = async (row: JobInstance) => (await deliveries([row])).map((d) => d.url);

  it('should write one delivery per final winner, at the URL the resolution order picks, and none for the rest', async () => {
    const own = await running({ handler: 'h-reg', callbackUrl: 'https://own.example/cb' });
    const byHandler = await running({ handler: 'h-reg' });
    const byDefault = await running({ handler: 'h-other' });
    const noUrl = await running({ appId: bare });
    const retried = await running({ callbackUrl: 'https://own.example/retry' });
    const stale = await running({ callbackUrl: 'https://own.example/stale' });
    await db.ds.query('UPDATE job_instance SET fencing_token = 2 WHERE id = ?', [stale.id]); // its lease was lost
    const results = await Promise.all([
      writer.submit(write(own, S.SUCCESS)),
      writer.submit(write(byHandler, S.FAILED)),
      writer.submit(write(byDefault, S.TIMEOUT)),
      writer.submit(write(noUrl, S.SUCCESS)),
      writer.submit(write(retried, S.PENDING)),
      writer.submit(write(stale, S.SUCCESS)),
    ]);
    expect(results).toEqual([true, true, true, true, true, false]);
    expect(await urlOf(own)).toEqual(['https://own.example/cb']);
    expect(await urlOf(byHandler)).toEqual(['https://handler.example/cb']);
    expect(await urlOf(byDefault)).toEqual(['https://default.example/cb']);
    expect(await deliveries([noUrl, retried, stale])).toEqual([]);
    expect(await deliveries([own])).toEqual([
      expect.objectContaining({
        appId: app,
        host: 'own.example:443',
        state: CallbackState.PENDING,
        attempts: 0,
        nextAttemptAt: T,
        finalAt: T,
      }),
    ]);
  });

  it('should leave no delivery when the finishing transaction rolls back', async () => {
    class FailsAfterEnqueue extends CallbackDeliveryRepository {
      override async enqueueFinal(em: Tx, finals: readonly FinalInstance[], now: number): Promise<number> {
        const written = await super.enqueueFinal(em, finals, now);
        if (written > 0) throw new Error('the round fails after its outbox write');
        return written;
      }
    }
    const failing = writerWith(new FailsAfterEnqueue(db.ds));
    const row = await running({ callbackUrl: 'https://own.example/rolled-back' });
    expect(await failing.submit(write(row, S.FAILED))).toBeInstanceOf(Error);
    expect((await db.instances.reads.findById(row.id))?.status).toBe(S.RUNNING);
    expect((await db.attempts.listForInstance(row.id)).map((a) => a.status)).toEqual([S.RUNNING]);
    expect(await deliveries([row])).toEqual([]);
  });

  it('should make no second delivery when a committed finishing write is written again', async () => {
    const failed = await running({ callbackUrl: 'https://own.example/again' });
    const succeeded = await running({ callbackUrl: 'https://own.example/again' });
    expect(await writer.submit(write(failed, S.FAILED))).toBe(true);
    expect(await writer.submit(write(succeeded, S.SUCCESS))).toBe(true);
    const first = await deliveries([failed, succeeded]);
    expect(first).toHaveLength(2);
    // The same writes again, as after a commit whose answer was lost: each counts as its own earlier write.
    expect(await writer.submit(write(failed, S.FAILED))).toBe(true);
    expect(await writer.submit(write(succeeded, S.SUCCESS))).toBe(true);
    const again = await deliveries([failed, succeeded]);
    expect(again.map((d) => d.id).sort()).toEqual(first.map((d) => d.id).sort());
  });
});
