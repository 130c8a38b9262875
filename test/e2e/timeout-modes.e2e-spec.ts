import { Injectable, Module } from '@nestjs/common';
import type { TickwheelClient, TickwheelResponse } from '../../src/client/tickwheel-client.js';
import { JobContext, JobHandler, JobHandlerImpl } from '../../src/modules/execution/index.js';
import { signedClient, standaloneEnv, startNode, statusCounts, TestNode, waitFor } from '../utils/test-node.js';
import { createJob, neverFiringJob } from '../utils/jobs.js';

/** `tm.beat` params: run `ms`, calling ctx.heartbeat() every `everyMs` (never when `silent`). */
interface BeatParams {
  ms: number;
  everyMs: number;
  silent?: boolean;
}

@Injectable()
@JobHandler('tm.beat')
class BeatHandler implements JobHandlerImpl {
  async execute(ctx: JobContext): Promise<unknown> {
    const p = ctx.params as BeatParams;
    const end = Date.now() + p.ms;
    let beats = 0;
    while (Date.now() < end) {
      await pause(p.everyMs, ctx.signal);
      if (!p.silent) ctx.heartbeat();
      beats++;
    }
    return { beats };
  }
}

@Module({ providers: [BeatHandler] })
class BeatModule {}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason as Error)), { once: true });
  });
}

interface View {
  status: string;
  error: string | null;
  timeoutMode: string;
  heartbeatTimeoutMs: number;
  attempts: Array<{ status: string; error: string | null }>;
}

function expectField(res: TickwheelResponse, field: string): void {
  expect({ status: res.status, field: (res.body as { field?: string }).field }).toEqual({ status: 400, field });
}

/** The operator's bound of the test node: every attempt, heart-beating or not, ends by then. */
const MAX_RUN_TIME_MS = 5000;

/**
 * Timeout modes (docs/long-tasks.md "Timeout modes"), standalone: HARD ends a heart-beating handler at timeoutMs;
 * HEARTBEAT lets it run past its timeoutMs (and past several leases), ends it only on silence or at
 * MAX_RUN_TIME_MS; the inputs are checked against the mode and MAX_RUN_TIME_MS (a 400 naming the field).
 */
describe('timeoutMode HARD and HEARTBEAT (standalone)', () => {
  let node: TestNode;
  let client: TickwheelClient;
  let n = 0;

  beforeAll(async () => {
    const env = standaloneEnv({
      MAX_RUN_TIME_MS: String(MAX_RUN_TIME_MS),
      LEASE_MS: '1500',
      LEASE_RENEW_MS: '300',
      EXECUTOR_CONCURRENCY: '4',
      EXECUTOR_APP_SHARE: '1',
    });
    node = await startNode(env, { imports: [BeatModule] });
    client = await signedClient(node);
  }, 30_000);

  afterAll(async () => {
    await node?.close();
  });

  const view = async (id: string) => (await client.getTask(id)).body as unknown as View;

  async function submit(body: Record<string, unknown>): Promise<string> {
    const requestId = `tm-${++n}-${Date.now()}`;
    const res = await client.submitTask({ requestId, handler: 'tm.beat', ...body });
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 202 });
    return requestId;
  }

  async function settled(id: string): Promise<View> {
    const running = ['PENDING', 'DISPATCHED', 'RUNNING'];
    await waitFor(`${id} to end`, async () => !running.includes((await view(id)).status), 30_000, 50);
    return view(id);
  }

  it('should let a handler heart-beating every 200 ms outrun its timeoutMs under HEARTBEAT, and end it under HARD', async () => {
    const beating = { params: { ms: 3500, everyMs: 200 }, timeoutMs: 1500, heartbeatTimeoutMs: 1000 };
    const hard = await submit({ ...beating, timeoutMode: 'HARD' });
    const soft = await submit({ ...beating, timeoutMode: 'HEARTBEAT' });
    const [h, s] = [await settled(hard), await settled(soft)];
    expect([h.status, h.error, h.timeoutMode]).toEqual(['TIMEOUT', 'timed out after 1500 ms', 'HARD']);
    // 3.5 s: past its timeoutMs, three heartbeat timeouts and two leases (1.5 s)
    expect([s.status, s.timeoutMode, s.attempts.map((a) => a.status)]).toEqual(['SUCCESS', 'HEARTBEAT', ['SUCCESS']]);
  }, 60_000);

  it('should end a silent handler under HEARTBEAT after its heartbeatTimeoutMs', async () => {
    const id = await submit({
      params: { ms: 20_000, everyMs: 200, silent: true },
      heartbeatTimeoutMs: 1000,
      timeoutMode: 'HEARTBEAT',
    });
    const done = await settled(id);
    expect(done.status).toBe('TIMEOUT');
    expect(done.error).toBe('HEARTBEAT_TIMEOUT: no progress, heartbeat or checkpoint for 1000 ms');
  }, 60_000);

  it('should end a handler still heart-beating under HEARTBEAT at MAX_RUN_TIME_MS, retried as a timeout', async () => {
    const id = await submit({
      params: { ms: 20_000, everyMs: 200 },
      heartbeatTimeoutMs: 1000,
      timeoutMode: 'HEARTBEAT',
      maxAttempts: 2,
      retryBackoffMs: 100,
    });
    const done = await settled(id);
    const error = `MAX_RUN_TIME_MS: still running after the longest run allowed, ${MAX_RUN_TIME_MS} ms`;
    expect([done.status, done.error]).toEqual(['TIMEOUT', error]);
    expect(done.attempts.map((a) => [a.status, a.error])).toEqual([
      ['TIMEOUT', error],
      ['TIMEOUT', error],
    ]);
  }, 60_000);

  it('should refuse timeouts that break the mode or MAX_RUN_TIME_MS, naming the field, and write nothing', async () => {
    const before = await statusCounts(node.ds, node.config.namespace);
    const task = (extra: Record<string, unknown>) => ({ requestId: `tm-bad-${Date.now()}`, handler: 'noop', ...extra });
    expectField(await client.submitTask(task({ timeoutMode: 'HEARTBEAT' })), 'heartbeatTimeoutMs');
    expectField(
      await client.submitTask(task({ timeoutMode: 'HEARTBEAT', heartbeatTimeoutMs: MAX_RUN_TIME_MS + 1 })),
      'heartbeatTimeoutMs',
    );
    expectField(await client.submitTask(task({ timeoutMs: MAX_RUN_TIME_MS + 1 })), 'timeoutMs');
    expectField(await client.submitTask(task({ timeoutMode: 'SOFT', heartbeatTimeoutMs: 1000 })), 'timeoutMode');
    const batch = await client.submitTasks([
      { requestId: 'tm-ok', handler: 'noop', timeoutMode: 'HEARTBEAT', heartbeatTimeoutMs: 1000 },
      { requestId: 'tm-bad', handler: 'noop', timeoutMode: 'HEARTBEAT' },
    ] as never);
    expectField(batch, 'tasks[1].heartbeatTimeoutMs');
    const job = (extra: Record<string, unknown>) => neverFiringJob('tm-bad-job', 'noop', extra);
    expectField(await client.request('POST', '/api/jobs', job({ timeoutMode: 'HEARTBEAT' })), 'heartbeatTimeoutMs');
    expectField(await client.request('POST', '/api/jobs', job({ timeoutMs: MAX_RUN_TIME_MS + 1 })), 'timeoutMs');
    expect((await client.request('GET', '/api/jobs/tm-bad-job')).status).toBe(404);
    expect(await statusCounts(node.ds, node.config.namespace)).toEqual(before);
  });

  it("should check a job's mode on create and PATCH, copy it to each fire, and let a fire outrun its timeoutMs", async () => {
    const created = await createJob(client, {
      code: 'tm-job',
      handler: 'tm.beat',
      params: { ms: 3000, everyMs: 200 },
      timeoutMs: 1500,
      heartbeatTimeoutMs: 0,
    });
    expect(created.timeoutMode).toBe('HARD');
    const patch = (body: Record<string, unknown>) => client.request<View>('PATCH', '/api/jobs/tm-job', body);
    expectField(await patch({ timeoutMode: 'HEARTBEAT' }), 'heartbeatTimeoutMs'); // silence must be able to end it
    // under HEARTBEAT the heartbeat timeout may exceed timeoutMs (not applied), never MAX_RUN_TIME_MS
    const changed = await patch({ timeoutMode: 'HEARTBEAT', heartbeatTimeoutMs: 2000 });
    expect([changed.status, changed.body.timeoutMode, changed.body.heartbeatTimeoutMs]).toEqual([
      200,
      'HEARTBEAT',
      2000,
    ]);
    expectField(await patch({ heartbeatTimeoutMs: 0 }), 'heartbeatTimeoutMs');
    const fired = await client.request<{ instanceId: string }>('POST', '/api/jobs/tm-job/trigger', {});
    expect(fired.status).toBe(202);
    const path = `/api/jobs/tm-job/instances/${fired.body.instanceId}`;
    const read = async () => (await client.request<View>('GET', path)).body;
    await waitFor('the fire to end', async () => ['SUCCESS', 'TIMEOUT', 'FAILED'].includes((await read()).status));
    expect(await read()).toMatchObject({ status: 'SUCCESS', timeoutMode: 'HEARTBEAT', heartbeatTimeoutMs: 2000 });
  }, 60_000);
});
