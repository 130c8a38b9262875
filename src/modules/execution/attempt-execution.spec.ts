import { FakeClock } from '../../../test/fakes/fake-clock.js';
import { advanceSettled, settle } from '../../../test/fakes/settle.js';
import { JobInstance, JobInstanceStatus as S } from '../metadata/index.js';
import type { MetricsService } from '../observability/index.js';
import { CheckpointWriter } from './attempt-checkpoints.js';
import { AttemptExecution } from './attempt-execution.js';
import type { JobContext } from '../handler/index.js';

const T0 = 1_000_000;

/** One attempt of a handler that waits for its signal, or ignores it (`ignore`), exposing its context. */
function setup(heartbeatTimeoutMs: number, ignore = false) {
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
  );
  const row = Object.assign(new JobInstance(), {
    id: 'i1',
    handler: 'h',
    params: {},
    timeoutMs: 60_000,
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
