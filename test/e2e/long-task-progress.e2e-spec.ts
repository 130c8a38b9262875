import { Injectable, Module } from '@nestjs/common';
import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { JobContext, JobHandler, JobHandlerImpl } from '../../src/modules/execution/index.js';
import {
  clusterEnv,
  signedClient,
  standaloneEnv,
  startNode,
  TestNode,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';

/**
 * `lt.work` params: `steps` steps of `stepMs`, each followed by a report (`progress`, `heartbeat` or `none`).
 * `ignoreAbort` (on the attempts listed, all when none listed): the handler sleeps through its signal and returns.
 */
interface WorkParams {
  steps: number;
  stepMs: number;
  report: 'progress' | 'heartbeat' | 'checkpoint' | 'none';
  ignoreAbort?: boolean;
  ignoreOnAttempts?: number[];
}

@Injectable()
@JobHandler('lt.work')
class WorkHandler implements JobHandlerImpl {
  async execute(ctx: JobContext): Promise<unknown> {
    const p = ctx.params as WorkParams;
    const ignore = p.ignoreAbort === true && (!p.ignoreOnAttempts || p.ignoreOnAttempts.includes(ctx.attempt));
    if (p.ignoreOnAttempts && !ignore) return { attempt: ctx.attempt, quick: true };
    for (let i = 1; i <= p.steps; i++) {
      await pause(p.stepMs, ignore ? undefined : ctx.signal);
      if (p.report === 'progress') ctx.progress(i / p.steps, `step ${i}`);
      if (p.report === 'heartbeat') ctx.heartbeat();
      if (p.report === 'checkpoint') await ctx.checkpoint({ step: i });
    }
    return { attempt: ctx.attempt, steps: p.steps };
  }
}

@Module({ providers: [WorkHandler] })
class WorkModule {}

/** Waits `ms`; with a signal, rejects with its reason as soon as it aborts. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });
}

interface Attempt {
  attempt: number;
  status: string;
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
  handlerEndedAt: string | null;
  lateStatus: string | null;
  lateError: string | null;
  overlapsPrevious: boolean;
}

interface View {
  status: string;
  error: string | null;
  startedAt: string | null;
  result: unknown;
  progress: number | null;
  progressNote: string | null;
  progressAt: string | null;
  heartbeatTimeoutMs: number;
  attempts: Attempt[];
}

/** Short leases so a handler that runs a few seconds outlives several of them. */
const SETTINGS = {
  LEASE_MS: '1500',
  LEASE_RENEW_MS: '300',
  EXECUTOR_CONCURRENCY: '2',
  EXECUTOR_APP_SHARE: '1', // the test's one app may take both slots
  PROGRESS_WRITE_INTERVAL_MS: '200',
};

const NS = uniqueNamespace('e2e-lt-progress');
const shapes: Array<[string, () => Record<string, string>, string | null]> = [
  ['standalone SQLite', () => standaloneEnv(SETTINGS), null],
  ['cluster MariaDB and Redis', () => clusterEnv(NS, SETTINGS), NS],
];

describe.each(shapes)('long tasks: progress, heartbeat timeout, late completions (%s)', (_name, env, ns) => {
  let node: TestNode;
  let client: TickwheelClient;
  let n = 0;

  beforeAll(async () => {
    node = await startNode(env(), { imports: [WorkModule] });
    client = await signedClient(node);
  }, 30_000);

  afterAll(async () => {
    if (ns) await deleteNamespaceRows(node?.ds, ns);
    await node?.close();
  });

  const view = async (id: string) => (await client.getTask(id)).body as unknown as View;

  async function submit(body: Record<string, unknown>): Promise<string> {
    const requestId = `lt-${++n}-${Date.now()}`;
    const res = await client.submitTask({ requestId, handler: 'lt.work', ...body });
    expect(res.status).toBe(202);
    return requestId;
  }

  async function settled(id: string, what = 'the task to end', ms = 30_000): Promise<View> {
    await waitFor(what, async () => !['PENDING', 'DISPATCHED', 'RUNNING'].includes((await view(id)).status), ms, 50);
    return view(id);
  }

  it('should show progress while the handler runs, and keep a reporting handler alive past its heartbeat timeout (and past LEASE_MS)', async () => {
    const id = await submit({
      params: { steps: 10, stepMs: 400, report: 'progress' },
      heartbeatTimeoutMs: 1000,
      timeoutMs: 30_000,
    });
    let seen: View | undefined;
    await waitFor('a stored progress', async () => {
      const v = await view(id);
      if (v.status === 'RUNNING' && v.progress !== null) seen = v;
      return seen !== undefined;
    });
    expect(seen!.progress).toBeGreaterThan(0);
    expect(seen!.progress).toBeLessThan(1);
    expect(seen!.progressNote).toMatch(/^step \d+$/);
    expect(new Date(seen!.progressAt as string).toISOString()).toBe(seen!.progressAt);
    expect(seen!.heartbeatTimeoutMs).toBe(1000);
    const done = await settled(id);
    // 4 s of work: four heartbeat timeouts and more than two leases (1.5 s) long
    expect(done.status).toBe('SUCCESS');
    expect(done.attempts.map((a) => a.status)).toEqual(['SUCCESS']);
    expect(done.attempts[0].handlerEndedAt).not.toBeNull();
    expect(done.attempts[0].lateStatus).toBeNull();
    // the last report (within the write interval of the one before, so it waited) is stored before the end
    expect([done.progress, done.progressNote]).toEqual([1, 'step 10']);
  }, 60_000);

  it('should keep a handler that only calls ctx.heartbeat() alive past its heartbeat timeout', async () => {
    const id = await submit({ params: { steps: 8, stepMs: 300, report: 'heartbeat' }, heartbeatTimeoutMs: 1000 });
    const done = await settled(id);
    expect(done.status).toBe('SUCCESS');
    expect(done.progress).toBeNull();
  }, 60_000);

  it('should keep a handler that only stores checkpoints alive past its heartbeat timeout', async () => {
    const id = await submit({ params: { steps: 8, stepMs: 300, report: 'checkpoint' }, heartbeatTimeoutMs: 1000 });
    const done = await settled(id);
    expect(done.status).toBe('SUCCESS');
    expect(done.attempts.map((a) => a.status)).toEqual(['SUCCESS']);
  }, 60_000);

  it('should end a silent handler HEARTBEAT_TIMEOUT and retry it as a timeout', async () => {
    const started = Date.now();
    const id = await submit({
      params: { steps: 100, stepMs: 200, report: 'none' },
      heartbeatTimeoutMs: 1000,
      timeoutMs: 60_000,
      maxAttempts: 2,
      retryBackoffMs: 100,
    });
    const done = await settled(id);
    expect(done.status).toBe('TIMEOUT');
    expect(done.error).toMatch(/^HEARTBEAT_TIMEOUT/);
    expect(done.attempts.map((a) => a.status)).toEqual(['TIMEOUT', 'TIMEOUT']);
    for (const a of done.attempts) expect(a.error).toMatch(/^HEARTBEAT_TIMEOUT: no progress, heartbeat or checkpoint/);
    expect(Date.now() - started).toBeLessThan(20_000); // far below timeoutMs: the heartbeat timeout ended them
  }, 60_000);

  it('should keep the worker slot of a handler that ignores its abort until it returns, and record its late end', async () => {
    const ignoring = { params: { steps: 1, stepMs: 4000, report: 'none', ignoreAbort: true }, timeoutMs: 1000 };
    const a = await submit(ignoring);
    const b = await submit(ignoring);
    await waitFor('both to run', async () => {
      const [x, y] = [await view(a), await view(b)];
      return x.status === 'RUNNING' && y.status === 'RUNNING';
    });
    const c = await client.submitTask({ requestId: `lt-noop-${Date.now()}`, handler: 'noop' });
    const cId = (c.body as { requestId: string }).requestId;
    const [va, vb] = [await settled(a), await settled(b)];
    expect([va.status, vb.status]).toEqual(['TIMEOUT', 'TIMEOUT']);
    expect(va.attempts[0].handlerEndedAt).toBeNull(); // recorded after the 1 s wind-down, the handler still runs
    await waitFor('the late ends', async () => {
      const [x, y] = [await view(a), await view(b)];
      return x.attempts[0].handlerEndedAt !== null && y.attempts[0].handlerEndedAt !== null;
    });
    const [la, lb] = [(await view(a)).attempts[0], (await view(b)).attempts[0]];
    for (const late of [la, lb]) {
      expect(late.status).toBe('TIMEOUT');
      expect(late.lateStatus).toBe('SUCCESS');
      expect(late.lateError).toBeNull();
      expect(Date.parse(late.handlerEndedAt as string)).toBeGreaterThan(Date.parse(late.finishedAt as string));
    }
    const vc = await settled(cId);
    expect(vc.status).toBe('SUCCESS');
    // both slots were held by the ignoring handlers: the noop started only once one of them had returned
    const firstEnd = Math.min(Date.parse(la.handlerEndedAt as string), Date.parse(lb.handlerEndedAt as string));
    expect(Date.parse(vc.startedAt as string)).toBeGreaterThanOrEqual(firstEnd);
  }, 60_000);

  it('should mark a retry that starts while the earlier handler still runs as overlapping it', async () => {
    const id = await submit({
      params: { steps: 1, stepMs: 4000, report: 'none', ignoreAbort: true, ignoreOnAttempts: [1] },
      timeoutMs: 1000,
      maxAttempts: 2,
      retryBackoffMs: 0,
    });
    const done = await settled(id);
    expect(done.status).toBe('SUCCESS');
    expect(done.result).toEqual({ attempt: 2, quick: true });
    await waitFor('the overlap mark', async () => (await view(id)).attempts[1].overlapsPrevious, 20_000);
    const [first, second] = (await view(id)).attempts;
    expect(first.status).toBe('TIMEOUT');
    expect(first.overlapsPrevious).toBe(false);
    expect(first.lateStatus).toBe('SUCCESS');
    expect(Date.parse(second.startedAt)).toBeLessThan(Date.parse(first.handlerEndedAt as string));
  }, 60_000);
});
