import { Injectable, Module } from '@nestjs/common';
import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { JobContext, JobHandler, JobHandlerImpl } from '../../src/modules/execution/index.js';
import { createJob, neverFiringJob } from '../utils/jobs.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import { parseTraceparent, startTraceReceiver, type TraceReceiver } from '../utils/trace-receiver.js';
import { clusterEnv, signedClient, startNode, TestNode, uniqueNamespace, waitFor } from '../utils/test-node.js';

/** What the recording handler saw, per requestId. */
const seen = new Map<string, { traceId: string; traceparent: string }>();

/** `trace.record`: keeps its context's trace fields. */
@Injectable()
@JobHandler('trace.record')
class RecordingHandler implements JobHandlerImpl {
  async execute(ctx: JobContext): Promise<unknown> {
    seen.set(ctx.requestId, { traceId: ctx.traceId, traceparent: ctx.traceparent });
    return { ok: true };
  }
}

@Module({ providers: [RecordingHandler] })
class RecordingModule {}

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';
const HEADER = { traceparent: `00-${TRACE}-${PARENT}-01` };
const VALID = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

type View = { status: string; traceId: string; traceparent: string; instanceId: string };

/** W3C trace context through a run (docs/observability.md "Tracing"), one clustered node with every role. */
describe('trace context (traceparent) follows the work', () => {
  const ns = uniqueNamespace('e2e-trace');
  let node: TestNode;
  let client: TickwheelClient;
  let receiver: TraceReceiver;

  beforeAll(async () => {
    receiver = await startTraceReceiver();
    node = await startNode(clusterEnv(ns), { imports: [RecordingModule] });
    client = await signedClient(node);
  }, 30_000);

  afterAll(async () => {
    await deleteNamespaceRows(node.ds, ns, { definitions: true });
    await node?.close();
    await receiver?.close();
  });

  const ended = async (path: string): Promise<View> => {
    let view: View | undefined;
    await waitFor(`${path} to end`, async () => {
      view = (await client.request<View>('GET', path)).body;
      return ['SUCCESS', 'FAILED'].includes(view.status);
    });
    return view!;
  };
  const task = (requestId: string) => ended(`/api/tasks/${requestId}`);
  const sent = (path: string) => receiver.requests.filter((r) => r.path === path);

  it("should store the submit's trace, give the handler a child span, and send it on the callback", async () => {
    const body = { requestId: 'tp-one', handler: 'trace.record', callbackUrl: `${receiver.url}/cb/one` };
    expect((await client.request('POST', '/api/tasks', body, HEADER)).status).toBe(202);
    const view = await task('tp-one');
    expect(view.traceId).toBe(TRACE);
    const [, trace, span, flags] = VALID.exec(view.traceparent)!;
    expect([trace, flags]).toEqual([TRACE, '01']);
    expect(span).not.toBe(PARENT); // its own span, a child of the caller's
    const ctx = seen.get('tp-one')!;
    expect(ctx.traceId).toBe(TRACE);
    const attempt = parseTraceparent(ctx.traceparent)!;
    expect(attempt.traceId).toBe(TRACE);
    expect([PARENT, span]).not.toContain(attempt.spanId);
    await waitFor('the callback', async () => sent('/cb/one').length > 0);
    const cb = parseTraceparent(sent('/cb/one')[0].headers.traceparent)!;
    expect(cb.traceId).toBe(TRACE);
    expect([PARENT, span, attempt.spanId]).not.toContain(cb.spanId);
  });

  it("should send the attempt span as the http handler's traceparent header", async () => {
    const body = { requestId: 'tp-http', handler: 'http', params: { url: `${receiver.url}/target`, method: 'GET' } };
    expect((await client.request('POST', '/api/tasks', body, HEADER)).status).toBe(202);
    expect((await task('tp-http')).status).toBe('SUCCESS');
    const got = parseTraceparent(sent('/target')[0]?.headers.traceparent);
    expect(got?.traceId).toBe(TRACE);
    expect(got?.spanId).not.toBe(PARENT);
  });

  it('should carry the header of a batch and a trigger-now to every row', async () => {
    const tasks = ['tp-b1', 'tp-b2'].map((requestId) => ({ requestId, handler: 'trace.record' }));
    expect((await client.request('POST', '/api/tasks/batch', { tasks }, HEADER)).status).toBe(202);
    for (const id of ['tp-b1', 'tp-b2']) {
      expect((await task(id)).traceId).toBe(TRACE);
      expect(seen.get(id)?.traceId).toBe(TRACE);
    }
    await createJob(client, neverFiringJob('tp-job', 'trace.record'));
    const fired = await client.request<View>('POST', '/api/jobs/tp-job/trigger', {}, HEADER);
    expect(fired.status).toBe(202);
    expect(fired.body.traceparent).toMatch(new RegExp(`^00-${TRACE}-[0-9a-f]{16}-01$`));
  });

  it('should start a new valid trace for a fire or a submit without one, or with a malformed header', async () => {
    const fired = await client.request<View>('POST', '/api/jobs/tp-job/trigger', {});
    const bad = `00-${TRACE.toUpperCase()}-${PARENT}-01`;
    const body = { requestId: 'tp-bad', handler: 'trace.record' };
    expect((await client.request('POST', '/api/tasks', body, { traceparent: bad })).status).toBe(202);
    const zero = { requestId: 'tp-zero', handler: 'trace.record' };
    const zeros = `00-${'0'.repeat(32)}-${PARENT}-01`;
    expect((await client.request('POST', '/api/tasks', zero, { traceparent: zeros })).status).toBe(202);
    const views = [fired.body, await task('tp-bad'), await task('tp-zero')];
    for (const v of views) {
      const ctx = parseTraceparent(v.traceparent);
      expect(ctx).not.toBeNull();
      expect(ctx!.traceId).toBe(v.traceId);
      expect(v.traceId).not.toBe(TRACE);
    }
    expect(new Set(views.map((v) => v.traceId)).size).toBe(3);
    expect(seen.get('tp-bad')?.traceId).toBe(views[1].traceId);
  });

  it('should give a scheduled fire a fresh valid traceparent', async () => {
    const at = new Date(Date.now() + 1500).toISOString();
    await createJob(client, { code: 'tp-once', handler: 'trace.record', triggerType: 'ONE_SHOT', triggerExpr: at });
    let items: View[] = [];
    await waitFor('the fire', async () => {
      items = (await client.request<{ items: View[] }>('GET', '/api/jobs/tp-once/instances')).body.items ?? [];
      return items.length > 0;
    });
    const ctx = parseTraceparent(items[0].traceparent);
    expect(ctx?.traceId).toBe(items[0].traceId);
    expect(ctx?.traceId).not.toBe(TRACE);
  });
});
