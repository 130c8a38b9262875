import { createServer } from 'node:net';
import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import { type ProductProcess, startProcess } from '../utils/process-node.js';
import {
  type ExportedSpan,
  parseTraceparent,
  startTraceReceiver,
  type TraceReceiver,
} from '../utils/trace-receiver.js';
import {
  clusterEnv,
  liveExecutors,
  signedClient,
  startNode,
  TestNode,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const PARENT = 'b7ad6b7169203331';

/** A port free on 127.0.0.1 now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** The JSON lines of a process's output that carry `traceId`. */
function linesOf(proc: ProductProcess, traceId: string): Array<Record<string, unknown>> {
  return proc
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.traceId === traceId);
}

/**
 * One trace across pods (docs/observability.md "Tracing"): an api process and an executor process (LOG_LEVEL=debug)
 * and an in-process scheduler, all exporting spans to an OTLP/HTTP receiver of the test. A submit with a
 * traceparent: its id is in the api's and the executor's log lines, and the submit (api), the attempt (executor)
 * and the callback (scheduler) arrive as spans of that trace, the attempt and callback children of the submit.
 */
describe('trace id in every pod and OTLP span export (real processes)', () => {
  const ns = uniqueNamespace('e2e-otel');
  let receiver: TraceReceiver;
  let node: TestNode;
  let api: ProductProcess;
  let executor: ProductProcess;
  let client: TickwheelClient;

  beforeAll(async () => {
    receiver = await startTraceReceiver();
    const otel = { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces` };
    node = await startNode(clusterEnv(ns, { ROLES: 'api,scheduler', ...otel }));
    const port = await freePort();
    api = startProcess(clusterEnv(ns, { ROLES: 'api', PORT: String(port), LOG_LEVEL: 'debug', ...otel }));
    executor = startProcess(
      clusterEnv(ns, { ROLES: 'executor', PORT: '0', NODE_NAME: 'otelx', LOG_LEVEL: 'debug', ...otel }),
    );
    const { appId, secret } = await signedClient(node);
    client = new TickwheelClient({ baseUrl: `http://127.0.0.1:${port}`, appId, secret });
    await waitFor(
      'the api process',
      async () => (await fetch(`${client.baseUrl}/health/live`).catch(() => null))?.ok === true,
      60_000,
    );
    const up = async () => (await liveExecutors(node)).includes('otelx');
    await waitFor('the executor process', up, 60_000);
  }, 120_000);

  afterAll(async () => {
    await api?.stop(5000);
    await executor?.stop(5000);
    await deleteNamespaceRows(node.ds, ns, { definitions: true });
    await node?.close();
    await receiver?.close();
  });

  it('should log the trace id on the api and the executor and export linked spans of the trace', async () => {
    const body = {
      requestId: 'otel-1',
      handler: 'http',
      params: { url: `${receiver.url}/target`, method: 'GET' },
      callbackUrl: `${receiver.url}/cb`,
    };
    const submit = await client.request('POST', '/api/tasks', body, { traceparent: `00-${TRACE}-${PARENT}-01` });
    expect(submit.status).toBe(202);
    await waitFor('the callback', async () => receiver.requests.some((r) => r.path === '/cb'), 60_000);
    const view = (await client.request<{ status: string; traceparent: string }>('GET', '/api/tasks/otel-1')).body;
    expect(view.status).toBe('SUCCESS');
    const stored = parseTraceparent(view.traceparent)!;

    expect(linesOf(api, TRACE).map((l) => l.msg)).toEqual(expect.arrayContaining([expect.stringMatching(/created/)]));
    const executed = linesOf(executor, TRACE).map((l) => l.msg);
    expect(executed).toEqual(expect.arrayContaining([expect.stringMatching(/attempt 1 started/)]));
    expect(executed).toEqual(expect.arrayContaining([expect.stringMatching(/attempt 1 ended SUCCESS/)]));

    let spans: ExportedSpan[] = [];
    const named = (name: string) => spans.find((s) => s.name === name);
    await waitFor(
      'the three spans',
      async () => {
        spans = receiver.spans().filter((s) => s.traceId === TRACE);
        return ['tickwheel.submit', 'tickwheel.attempt', 'tickwheel.callback'].every((n) => named(n));
      },
      60_000,
      200,
    );
    const [sub, attempt, callback] = ['tickwheel.submit', 'tickwheel.attempt', 'tickwheel.callback'].map(named);
    expect(sub).toMatchObject({ spanId: stored.spanId, parentSpanId: PARENT, service: 'tickwheel-api' });
    expect(attempt).toMatchObject({ parentSpanId: stored.spanId, service: 'tickwheel-executor' });
    expect(attempt!.status?.code).toBe(1); // OK
    expect(callback).toMatchObject({ parentSpanId: stored.spanId, service: 'tickwheel-api-scheduler' });
    // The http handler's header named the attempt span as its parent.
    const target = receiver.requests.find((r) => r.path === '/target')!;
    expect(parseTraceparent(target.headers.traceparent)).toMatchObject({ traceId: TRACE, spanId: attempt!.spanId });
    // The callback's header is the callback span.
    const cb = receiver.requests.find((r) => r.path === '/cb')!;
    expect(parseTraceparent(cb.headers.traceparent)?.spanId).toBe(callback!.spanId);
  });
});
