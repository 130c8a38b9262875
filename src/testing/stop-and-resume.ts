import type { Checkpoint, JobHandlerImpl, JobResult } from '../modules/handler/index.js';
import { FakeJobContext, type FakeJobContextOptions } from './fake-job-context.js';

/** How a run ended: the handler returned a value or threw. */
export type RunOutcome = { status: 'returned'; value: JobResult } | { status: 'threw'; error: unknown };

/** One run (attempt) of the handler: its context (what it recorded) and how it ended. */
export interface RunRecord {
  ctx: FakeJobContext;
  outcome: RunOutcome;
}

/** What {@link runStopAndResume} takes: where to stop the first run, and the runs' context. */
export interface StopAndResumeOptions {
  /** Stop the first run once its Nth checkpoint (1-based) is stored. */
  stopAfterCheckpoint?: number;
  /** Stop the first run once a stored checkpoint's state makes this true (`index` 0-based). */
  stopWhen?: (state: unknown, index: number) => boolean;
  /** The abort reason the first run's signal gets; default an Error "stopped: shutdown". */
  reason?: unknown;
  /** The first run's context (params, attempt, fencingToken, lastCheckpoint, …); the second follows from it. */
  context?: FakeJobContextOptions;
  /** How long the first run may take to end once aborted, ms; default 5,000. */
  settleMs?: number;
}

/** Both runs and the second run's result. */
export interface StopAndResumeResult {
  first: RunRecord;
  second: RunRecord;
  /** What the second run returned. */
  result: JobResult;
}

/**
 * Runs `handler` and stops it, as a shutdown or a lost lease would, at the point the options name: the signal is
 * aborted right after that checkpoint is stored, and every later checkpoint of the run is refused
 * (`CheckpointRejected`), so nothing after the stop reaches the next attempt. Then it runs the handler again as the
 * next attempt (attempt + 1, fencing token + 1) from the first run's last stored checkpoint, to its end.
 * @returns both runs' records and the second run's result.
 * @throws Error when the first run ends before the stop point, or does not end within `settleMs` of the abort;
 *   whatever the second run throws (a JobFailure, say).
 */
export async function runStopAndResume(
  handler: JobHandlerImpl,
  opts: StopAndResumeOptions = {},
): Promise<StopAndResumeResult> {
  const { stopAfterCheckpoint, stopWhen } = opts;
  if (stopAfterCheckpoint === undefined && stopWhen === undefined)
    throw new Error('runStopAndResume: give stopAfterCheckpoint or stopWhen');
  if (stopAfterCheckpoint !== undefined && !(Number.isInteger(stopAfterCheckpoint) && stopAfterCheckpoint >= 1))
    throw new RangeError(`runStopAndResume: stopAfterCheckpoint ${stopAfterCheckpoint} is not an integer >= 1`);
  const first = new FakeJobContext(opts.context);
  let stopped = false;
  first.onCheckpoint((c) => {
    const index = first.checkpoints.length - 1;
    if (stopped || !(index + 1 === stopAfterCheckpoint || (stopWhen?.(c.state, index) ?? false))) return;
    stopped = true;
    first.rejectCheckpoints();
    first.abort(opts.reason ?? new Error('stopped: shutdown'));
  });
  const firstOutcome = await settle(handler, first, opts.settleMs ?? 5_000);
  if (!stopped)
    throw new Error(
      `runStopAndResume: the first run ended (${firstOutcome.status}) before the stop point, ` +
        `after ${first.checkpoints.length} checkpoint(s)`,
    );
  const resumeFrom: Checkpoint | null = first.checkpoints.at(-1) ?? first.lastCheckpoint;
  const second = new FakeJobContext({
    ...opts.context,
    attempt: first.attempt + 1,
    maxAttempts: Math.max(first.maxAttempts, first.attempt + 1),
    fencingToken: first.fencingToken + 1,
    lastCheckpoint: resumeFrom,
  });
  const secondOutcome = await run(handler, second);
  if (secondOutcome.status === 'threw') throw secondOutcome.error;
  return {
    first: { ctx: first, outcome: firstOutcome },
    second: { ctx: second, outcome: secondOutcome },
    result: secondOutcome.value,
  };
}

async function run(handler: JobHandlerImpl, ctx: FakeJobContext): Promise<RunOutcome> {
  try {
    return { status: 'returned', value: await handler.execute(ctx) };
  } catch (error) {
    return { status: 'threw', error };
  }
}

/** The run's outcome; once its signal is aborted, it must end within `settleMs`. */
async function settle(handler: JobHandlerImpl, ctx: FakeJobContext, settleMs: number): Promise<RunOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    ctx.signal.addEventListener('abort', () => {
      timer = setTimeout(
        () => reject(new Error(`runStopAndResume: the first run did not end within ${settleMs} ms of its abort`)),
        settleMs,
      );
    });
  });
  late.catch(() => undefined); // raced below; a rejection after the run ended is nobody's concern
  try {
    return await Promise.race([run(handler, ctx), late]);
  } finally {
    if (timer) clearTimeout(timer);
  }
}
