import { jest } from '@jest/globals';
import { clockAt } from '../../../test/fakes/fake-clock.js';
import { type ClaimedInstance, JobInstance, JobInstanceStatus as S, type UnitOfWork } from '../metadata/index.js';
import { FinishWriter, type FinishingWrite } from './finish-writer.js';
import { TaskRunner } from './task-runner.service.js';

const LEASE_MS = 180_000;
const T0 = 1_800_000_000_000;
/** What mysql2 throws while the server is down (fatal: the connection is gone). */
const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3306'), { code: 'ECONNREFUSED', fatal: true });

/** The database answers again `ms` after the test's start (fake time): every call before throws {@link refused}. */
function downFor(ms: number): () => void {
  return () => {
    if (Date.now() < T0 + ms) throw refused();
  };
}

const row = () => Object.assign(new JobInstance(), { id: 'i1', attempt: 1, maxAttempts: 1, status: S.DISPATCHED });

/** A FinishWriter on fakes whose transaction runs `gate` first; `succeeded` collects the ids its UPDATE won. */
function writer(gate: () => void) {
  const succeeded: string[] = [];
  const uow = { run: async <T>(fn: (tx: never) => Promise<T>) => (gate(), fn('tx' as never)) };
  const ledger = {
    succeed: async (_tx: unknown, done: Array<{ id: string }>) => {
      succeeded.push(...done.map((d) => d.id));
      return new Set(done.map((d) => d.id));
    },
    endAttempts: async () => undefined,
    findMany: async () => [],
  };
  const sut = new FinishWriter(
    { transition: async () => false },
    ledger,
    uow as unknown as UnitOfWork,
    { enqueueFinal: async () => 0 },
    clockAt(() => Date.now()),
    { leaseMs: LEASE_MS },
  );
  return { sut, succeeded };
}

const success = (): FinishingWrite => ({
  row: row(),
  token: 1,
  nodeId: 'n1',
  startedAt: T0,
  outcome: { status: S.SUCCESS, result: { ok: true } },
  status: S.SUCCESS,
  patch: { result: { ok: true } },
  at: T0,
});

// Date and timers are fake (the retries' back-off and their budget); immediates are real (the group commit's turn).
beforeEach(() => jest.useFakeTimers({ now: T0, doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] }));
afterEach(() => jest.useRealTimers());

/**
 * docs/deploy.md "When MySQL or Redis cannot be reached": an executor keeps what it holds through an outage shorter
 * than its leases. A handler's result is written once the database is back (a 30 s budget turned a 40 s outage's
 * successes into take-backs), and a claim whose answer was lost is found again (5 s left the rows RUNNING with no one).
 */
describe('an executor while the database is away', () => {
  it("should write a finished attempt's result once the database is back, within LEASE_MS", async () => {
    const { sut, succeeded } = writer(downFor(60_000));
    let answer: boolean | Error | undefined;
    void sut.submit(success()).then((a) => (answer = a));
    await jest.advanceTimersByTimeAsync(59_000);
    expect(answer).toBeUndefined();
    await jest.advanceTimersByTimeAsync(2_000);
    expect(answer).toBe(true);
    expect(succeeded).toEqual(['i1']);
  });

  it('should give the write up once the database was away for LEASE_MS (the lease takes the row back)', async () => {
    const { sut, succeeded } = writer(downFor(Infinity));
    let answer: boolean | Error | undefined;
    void sut.submit(success()).then((a) => (answer = a));
    await jest.advanceTimersByTimeAsync(LEASE_MS - 2_000);
    expect(answer).toBeUndefined();
    await jest.advanceTimersByTimeAsync(3_000);
    expect(answer).toBeInstanceOf(Error);
    expect(succeeded).toEqual([]);
  });

  it('should run an instance whose claim committed while its answer was lost, the database away 40 s', async () => {
    const gate = downFor(40_000);
    const claims: number[] = [];
    const ran: string[] = [];
    const ledger = {
      findMany: async () => [Object.assign(row(), { nodeId: 'n1' })],
      // The first try committed; every try answers only once the database is back (the read-back finds the rows).
      claim: async (_tx: unknown, rows: JobInstance[], _node: string, now: number): Promise<ClaimedInstance[]> => {
        claims.push(now);
        gate();
        return rows.map((r) => ({ row: r, fencingToken: 1, startedAt: now, checkpoint: null }));
      },
    };
    const execution = {
      run: async (r: JobInstance) => {
        ran.push(r.id);
        return { outcome: { status: S.SUCCESS, result: null } as const, handler: null };
      },
    };
    const sut = new TaskRunner(
      execution as never,
      { finish: async () => ({ won: true, status: S.SUCCESS, final: true }) },
      ledger,
      { executionSeconds: { observe: () => undefined } } as never,
      { leaseMs: LEASE_MS },
      clockAt(() => Date.now()),
      { startable: async <R extends JobInstance>(rows: R[]) => rows },
      { claimed: () => undefined },
    );
    const ended: string[] = [];
    const done = sut.runMany(['i1'], 'n1', new AbortController().signal, {
      handlerDone: () => undefined,
      ended: (id) => ended.push(id),
    });
    await jest.advanceTimersByTimeAsync(42_000);
    await done;
    expect({ ran, ended, sameNow: new Set(claims).size }).toEqual({ ran: ['i1'], ended: ['i1'], sameNow: 1 });
    expect(claims.length).toBeGreaterThan(10);
  });
});
