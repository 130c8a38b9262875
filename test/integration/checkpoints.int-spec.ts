import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  type CheckpointWrite,
  corruptionOf,
  ExecutionLedger,
  JobInstance,
  JobInstanceStatus as S,
  newJobInstance,
  TriggerSource,
  UnitOfWork,
} from '../../src/modules/metadata/index.js';
import { AttemptCheckpoints, decodeCheckpoint } from '../../src/modules/execution/attempt-checkpoints.js';
import { CheckpointRejected } from '../../src/modules/execution/index.js';
import { type InstanceQueries, type MetadataDb, openMetadataDb } from '../utils/metadata-db.js';
import { uniqueNamespace } from '../utils/test-node.js';

const LEASE_MS = 60_000;
const MAX_BYTES = 4096;

/**
 * Checkpoints on the real databases (docs/long-tasks.md "Checkpoints"): one conditional UPDATE that stores the
 * state and renews the lease, refused to a stale token; bounded and JSON-only; one attempt's writes in call order;
 * the claim hands the last one to the next attempt (per shard), and an unreadable one only costs a warning.
 */
describe.each(['mysql', 'sqlite'] as const)('checkpoints (%s)', (kind) => {
  const ns = uniqueNamespace(`int-ckpt-${kind}`);
  let db: MetadataDb;
  let ds: DataSource;
  let instances: InstanceQueries;
  let ledger: ExecutionLedger;
  let now = 1_000;
  const clock = { now: () => now } as never;

  beforeAll(async () => {
    db = await openMetadataDb(kind, ns);
    ({ ds, instances } = db);
    ledger = new ExecutionLedger(ds, instances.execution, instances.reads, db.attempts);
  });
  afterAll(() => db.close());

  /** A row in `status` at attempt 1 under `token` (shard `shard` of one fire). */
  async function instance(status: S, token: number, shard = 0, fireTime = 1): Promise<JobInstance> {
    const fresh = { namespace: ns, appId: 'int', handler: 'h', fireTime, triggerSource: TriggerSource.API, dueAt: 1 };
    const row = newJobInstance({ ...fresh, shardIndex: shard, shardTotal: 2 }, 1);
    Object.assign(row, { status, nodeId: 'n-1', fencingToken: token, dispatchedAt: 1, leaseUntil: 2 });
    await ds.getRepository(JobInstance).save(row);
    return row;
  }
  const stored = async (id: string) =>
    (
      (await ds.query(
        'SELECT checkpoint, checkpoint_attempt, checkpoint_token, checkpoint_at, lease_until FROM job_instance WHERE id = ?',
        [id],
      )) as Array<Record<string, unknown>>
    ).map((r) => ({
      text: r.checkpoint,
      attempt: r.checkpoint_attempt === null ? null : Number(r.checkpoint_attempt),
      token: r.checkpoint_token === null ? null : Number(r.checkpoint_token),
      at: r.checkpoint_at === null ? null : Number(r.checkpoint_at),
      leaseUntil: Number(r.lease_until),
    }))[0];
  const writer = (
    row: JobInstance,
    token: number,
    store = (w: CheckpointWrite) => instances.execution.writeCheckpoint(w),
  ) =>
    new AttemptCheckpoints(
      store,
      { id: row.id, attempt: 1, fencingToken: token },
      {
        maxBytes: MAX_BYTES,
        leaseMs: LEASE_MS,
      },
      clock,
      () => undefined,
    );

  it('should store the state, attempt, token and time and renew the lease under the current token', async () => {
    const row = await instance(S.RUNNING, 3);
    now = 5_000;
    await writer(row, 3).write({ step: 5, cursor: 'é' });
    expect(await stored(row.id)).toEqual({
      text: JSON.stringify({ step: 5, cursor: 'é' }),
      attempt: 1,
      token: 3,
      at: 5_000,
      leaseUntil: 5_000 + LEASE_MS,
    });
  });

  it('should refuse a stale token or a row no longer RUNNING with CheckpointRejected, changing nothing', async () => {
    const row = await instance(S.RUNNING, 3);
    await writer(row, 3).write({ step: 1 });
    const before = await stored(row.id);
    now += 1000;
    await expect(writer(row, 2).write({ step: 99 })).rejects.toBeInstanceOf(CheckpointRejected);
    expect(await stored(row.id)).toEqual(before);
    await ds.query('UPDATE job_instance SET status = ? WHERE id = ?', [S.PENDING, row.id]);
    await expect(writer(row, 3).write({ step: 99 })).rejects.toThrow(/fencing token 3 is no longer current/);
    expect(await stored(row.id)).toEqual(before);
  });

  it('should refuse a state over CHECKPOINT_MAX_BYTES or not JSON with a RangeError, changing nothing', async () => {
    const row = await instance(S.RUNNING, 1);
    const w = writer(row, 1);
    await w.write('x'.repeat(MAX_BYTES - 2)); // its JSON, quotes included, is exactly the limit
    const before = await stored(row.id);
    await expect(w.write('x'.repeat(MAX_BYTES - 1))).rejects.toThrow(
      new RangeError(`checkpoint is ${MAX_BYTES + 1} bytes of JSON, over CHECKPOINT_MAX_BYTES (${MAX_BYTES})`),
    );
    await expect(w.write('é'.repeat(MAX_BYTES / 2))).rejects.toThrow(/over CHECKPOINT_MAX_BYTES/); // UTF-8 bytes
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    for (const bad of [undefined, () => 1, { n: 10n }, circular, { x: NaN }, [Symbol('s')]]) {
      await expect(w.write(bad)).rejects.toThrow(RangeError);
      await expect(w.write(bad)).rejects.toThrow(/checkpoint state is not JSON/);
    }
    expect(await stored(row.id)).toEqual(before);
  });

  it("should run one attempt's writes one at a time in call order, the last state winning", async () => {
    const row = await instance(S.RUNNING, 1);
    const trace: string[] = [];
    let inFlight = 0;
    const store = async (w: CheckpointWrite) => {
      inFlight++;
      trace.push(`start ${w.json} (${inFlight} in flight)`);
      await new Promise((r) => setTimeout(r, 20));
      const won = await instances.execution.writeCheckpoint(w);
      inFlight--;
      trace.push(`end ${w.json}`);
      return won;
    };
    const w = writer(row, 1, store);
    const state = { n: 1 };
    const first = w.write(state);
    state.n = 2; // the first write keeps what was asked for at its call
    await Promise.all([first, w.write(state), w.write({ n: 3 })]);
    expect(trace).toEqual([
      'start {"n":1} (1 in flight)',
      'end {"n":1}',
      'start {"n":2} (1 in flight)',
      'end {"n":2}',
      'start {"n":3} (1 in flight)',
      'end {"n":3}',
    ]);
    expect((await stored(row.id)).text).toBe('{"n":3}');
  });

  it('should let the event loop run between the writes of a handler that checkpoints in a tight loop', async () => {
    // The attack: `for (;;) await ctx.checkpoint(…)` froze a standalone node (API, leases, SIGTERM): SQLite writes
    // synchronously, so the loop only ever yielded to microtasks. A timer due now must fire within a few writes.
    const row = await instance(S.RUNNING, 1);
    const w = writer(row, 1);
    let writes = 0;
    let timerFiredAfter: number | null = null;
    setTimeout(() => (timerFiredAfter = writes), 0);
    while (timerFiredAfter === null && writes < 2_000) {
      await w.write({ n: writes });
      writes++;
    }
    expect(timerFiredAfter).not.toBeNull();
    expect(timerFiredAfter).toBeLessThan(50);
  });

  it('should keep writing after a refused write, and refuse each write of a stale attempt', async () => {
    const row = await instance(S.RUNNING, 4);
    const stale = writer(row, 3);
    const results = await Promise.allSettled([stale.write({ a: 1 }), stale.write({ a: 2 })]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    await writer(row, 4).write({ a: 3 });
    expect((await stored(row.id)).text).toBe('{"a":3}');
  });

  it('should hand the claim the last checkpoint of each shard, read only for rows that have one, not as a row field', async () => {
    const fire = 77_000 + Math.floor(Math.random() * 1000);
    const [s0, s1, s2] = [await instance(S.RUNNING, 1, 0, fire), await instance(S.RUNNING, 1, 1, fire)].concat(
      await instance(S.RUNNING, 1, 0, fire + 1),
    );
    now = 9_000;
    await writer(s0, 1).write({ shard: 0, done: 10 });
    await writer(s1, 1).write({ shard: 1, done: 20 });
    // the attempts are lost; the rows go back to DISPATCHED for the next attempt (as the reconciler does)
    await ds.query('UPDATE job_instance SET status = ?, attempt = 2 WHERE id IN (?, ?, ?)', [
      S.DISPATCHED,
      s0.id,
      s1.id,
      s2.id,
    ]);
    const read = await ledger.findMany([s0.id, s1.id, s2.id]);
    expect(read.every((r) => r.checkpoint === undefined)).toBe(true); // the text is not part of the row read
    expect(read.find((r) => r.id === s0.id)?.checkpointAt).toBe(9_000);
    const claimed = await UnitOfWork.for(ds).run((em) => ledger.claim(em, read, 'n-1', 10_000, 10_000 + LEASE_MS));
    const byId = new Map(claimed.map((c) => [c.row.id, c]));
    const last = (id: string) => decodeCheckpoint(byId.get(id)?.checkpoint ?? null, id, new Logger('t'));
    expect(last(s0.id)).toEqual({ state: { shard: 0, done: 10 }, attempt: 1, fencingToken: 1, at: 9_000 });
    expect(last(s1.id)).toEqual({ state: { shard: 1, done: 20 }, attempt: 1, fencingToken: 1, at: 9_000 });
    expect(byId.get(s2.id)?.checkpoint).toBeNull();
    // the next attempt's token is 2: its writes win, the first attempt's (token 1) no longer do
    await writer(s0, 2).write({ shard: 0, done: 11 });
    await expect(writer(s1, 1).write({ shard: 1, done: 21 })).rejects.toBeInstanceOf(CheckpointRejected);
    expect((await stored(s1.id)).text).toBe(JSON.stringify({ shard: 1, done: 20 }));
  });

  it('should give a checkpoint that is not valid JSON as null with a warning, without quarantining the row', async () => {
    const row = await instance(S.RUNNING, 1);
    await writer(row, 1).write({ ok: true });
    await ds.query('UPDATE job_instance SET checkpoint = ?, status = ? WHERE id = ?', ['{"cut', S.DISPATCHED, row.id]);
    const [read] = await ledger.findMany([row.id]);
    expect(corruptionOf(read)).toBeNull();
    const [claimed] = await UnitOfWork.for(ds).run((em) => ledger.claim(em, [read], 'n-1', 20_000, 80_000));
    expect(claimed.checkpoint?.text).toBe('{"cut');
    const warnings: string[] = [];
    const logger = { warn: (m: string) => warnings.push(m) } as unknown as Logger;
    expect(decodeCheckpoint(claimed.checkpoint, row.id, logger)).toBeNull();
    expect(warnings).toEqual([expect.stringMatching(/checkpoint of attempt 1 is not valid JSON \(5 bytes/)]);
  });
});
