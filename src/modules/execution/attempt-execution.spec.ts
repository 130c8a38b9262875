import { FakeClock } from '../../../test/fakes/fake-clock.js';
import { TimeoutMode } from '../../common/index.js';
import { advanceSettled, settle } from '../../../test/fakes/settle.js';
import { JobInstance, JobInstanceStatus as S } from '../metadata/index.js';
import type { MetricsService } from '../observability/index.js';
import { CheckpointWriter } from './attempt-checkpoints.js';
import { AttemptExecution } from './attempt-execution.js';
import type { JobContext } from '../handler/index.js';

const T0 = 1_000_000;

/** The timeout mode, the row's timeoutMs and MAX_RUN_TIME_MS of {@link setup}; HARD, 60 s and 24 h unless given. */
interface Limits {
  timeoutMode?: TimeoutMode;
  timeoutMs?: number;
  maxRunTimeMs?: number;
}

/** One attempt of a handler that waits for its signal, or ignores it (`ignore`), exposing its context. */
function setup(heartbeatTimeoutMs: number, ignore = false, limits: Limits = {}) {
  const clock = new FakeClock(T0);
  const reports: number[] = [];
  let ctx: JobContext | undefined;
  let release: () => void = () => undefined;
  const handler = {
    execute: (c: JobContext) => {
      ctx = c;
      return new Promise((resolve, reject) => {
        release = () => resolve('late');
        if (!ignore) c.signal.addEventListener('abort', () => reject(c.signal.reason as Error), { once: true });
      });
    },
  };
  const writer = {
    report: (_k: string, _i: string, _t: number, f: number) => reports.push(f),
    end: async () => undefined,
  };
  const execution = new AttemptExecution(
    { get: () => handler },
    { refusal: async () => null },
    {} as MetricsService,
    clock,
    new CheckpointWriter(
      { writeCheckpoint: async () => true },
      { leaseMs: 60_000, longTasks: { checkpointMaxBytes: 65_536 } },
      clock,
    ),
    writer,
    { longTasks: { maxRunTimeMs: limits.maxRunTimeMs ?? 86_400_000 } },
  );
  const row = Object.assign(new JobInstance(), {
    id: 'i1',
    handler: 'h',
    params: {},
    timeoutMs: limits.timeoutMs ?? 60_000,
    timeoutMode: limits.timeoutMode ?? TimeoutMode.HARD,
    heartbeatTimeoutMs,
    attempt: 1,
    maxAttempts: 1,
  });
  const run = execution.run(row, 1, new AbortController(), new AbortController().signal);
  return { clock, run, reports, ctx: () => ctx as JobContext, release: () => release() };
}

describe('AttemptExecution: heartbeat timeout and reports', () => {
  it('should take a report whose note cannot be turned into text, without throwing at the handler', async () => {
    const { ctx, reports } = setup(0);
    await settle();
    const note = {
      toString: () => {
        throw new Error('no text');
      },
    } as unknown as string;
    expect(() => ctx().progress(0.4, note)).not.toThrow();
    expect(reports).toEqual([0.4]);
  });

  it('should abort a silent handler with HEARTBEAT_TIMEOUT after its timeout, reset by each report', async () => {
    const { clock, run, ctx, reports } = setup(1000);
    await settle();
    await advanceSettled(clock, T0 + 900);
    ctx().heartbeat();
    await advanceSettled(clock, T0 + 1500);
    ctx().progress(0.5);
    await advanceSettled(clock, T0 + 2400);
    expect(ctx().signal.aborted).toBe(false);
    expect(clock.maxPending).toBeLessThanOrEqual(2); // the hard timeout and one heartbeat timer, never one per report
    await advanceSettled(clock, T0 + 2500);
    expect((ctx().signal.reason as Error).message).toBe('HEARTBEAT_TIMEOUT');
    const { outcome } = await run;
    expect(outcome).toEqual({
      status: S.TIMEOUT,
      error: 'HEARTBEAT_TIMEOUT: no progress, heartbeat or checkpoint for 1000 ms',
    });
    expect(reports).toEqual([0.5]);
  });

  it('should not time out a handler without a heartbeat timeout (0), however silent', async () => {
    const { clock, ctx } = setup(0);
    await settle();
    await advanceSettled(clock, T0 + 59_000);
    expect(ctx().signal.aborted).toBe(false);
  });

  it('should track the real end of a handler ignoring its abort, and drop its reports after the attempt', async () => {
    const { clock, run, ctx, reports, release } = setup(1000, true);
    await settle();
    await advanceSettled(clock, T0 + 1000);
    const { outcome, handler } = await run; // after the real 1 s wind-down
    expect(outcome.status).toBe(S.TIMEOUT);
    expect(handler?.end).toBeNull();
    ctx().progress(0.9); // the attempt is over: nowhere to go
    expect(reports).toEqual([]);
    clock.setNow(T0 + 5000);
    release();
    expect(await handler?.settled).toEqual({ at: T0 + 5000, status: 'SUCCESS', error: null });
  });
});

describe('AttemptExecution: timeout modes (docs/long-tasks.md "Timeout modes")', () => {
  /** Heartbeats every 200 ms of the fake clock until `until`; the signal's reason then, or null. */
  async function beatUntil(t: ReturnType<typeof setup>, until: number): Promise<string | null> {
    await settle();
    for (let at = T0 + 200; at <= until && !t.ctx().signal.aborted; at += 200) {
      await advanceSettled(t.clock, at);
      t.ctx().heartbeat();
    }
    return t.ctx().signal.aborted ? (t.ctx().signal.reason as Error).message : null;
  }

  it('should end a heart-beating handler at timeoutMs under HARD', async () => {
    const t = setup(1000, false, { timeoutMs: 3000 });
    expect(await beatUntil(t, T0 + 5000)).toBe('TIMEOUT');
    expect((await t.run).outcome).toEqual({ status: S.TIMEOUT, error: 'timed out after 3000 ms' });
  });

  it('should let a heart-beating handler run past its timeoutMs under HEARTBEAT, and succeed', async () => {
    const t = setup(1000, false, { timeoutMs: 3000, timeoutMode: TimeoutMode.HEARTBEAT });
    expect(await beatUntil(t, T0 + 10_000)).toBeNull();
    t.release();
    expect((await t.run).outcome).toEqual({ status: S.SUCCESS, result: 'late' });
  });

  it('should end a silent handler after its heartbeat timeout under HEARTBEAT', async () => {
    const t = setup(1000, false, { timeoutMs: 3000, timeoutMode: TimeoutMode.HEARTBEAT });
    expect(await beatUntil(t, T0 + 2000)).toBeNull();
    await advanceSettled(t.clock, T0 + 3000);
    expect((t.ctx().signal.reason as Error).message).toBe('HEARTBEAT_TIMEOUT');
    expect((await t.run).outcome).toHaveProperty(
      'error',
      expect.stringMatching(/^HEARTBEAT_TIMEOUT: no progress, heartbeat or checkpoint for 1000/),
    );
  });

  it('should end a heart-beating handler at MAX_RUN_TIME_MS under HEARTBEAT', async () => {
    const t = setup(1000, false, { timeoutMode: TimeoutMode.HEARTBEAT, maxRunTimeMs: 7000 });
    expect(await beatUntil(t, T0 + 9000)).toBe('MAX_RUN_TIME');
    expect((await t.run).outcome).toEqual({
      status: S.TIMEOUT,
      error: 'MAX_RUN_TIME_MS: still running after the longest run allowed, 7000 ms',
    });
  });

  it('should hold a HARD row whose timeoutMs is above MAX_RUN_TIME_MS to MAX_RUN_TIME_MS', async () => {
    const t = setup(0, false, { timeoutMs: 60_000, maxRunTimeMs: 2000 });
    await settle();
    await advanceSettled(t.clock, T0 + 2000);
    expect((await t.run).outcome).toHaveProperty('error', expect.stringMatching(/^MAX_RUN_TIME_MS: .* 2000 ms$/));
  });
});
