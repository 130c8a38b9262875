import { MetricsService } from '../../src/modules/observability/index.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import {
  type AppClient,
  clusterEnv,
  signedClient,
  startNode,
  TestNode,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';

/**
 * The api's request metrics (docs/observability.md "HTTP metrics") on a booted api node (MariaDB + Redis): Express's
 * own router decides the `route` label, for requests answered by a route and for those refused before routing.
 */
describe('HTTP metrics of the api role (MariaDB + Redis)', () => {
  const ns = uniqueNamespace('int-httpmetrics');
  let node: TestNode;
  let client: AppClient;

  beforeAll(async () => {
    node = await startNode(clusterEnv(ns, { ROLES: 'api' }));
    client = await signedClient(node);
  });

  afterAll(async () => {
    await deleteNamespaceRows(node?.ds, ns);
    await node?.close();
  });

  /** Requests counted by `method route status` (non-zero only), and the request durations observed per route. */
  async function series(): Promise<{ counted: Record<string, number>; timed: Record<string, number> }> {
    const metrics = node.app.get(MetricsService);
    const counted = (await metrics.httpRequests.get()).values.map(
      (v) => [`${v.labels.method} ${v.labels.route} ${v.labels.status}`, v.value] as const,
    );
    const timed = (await metrics.httpRequestSeconds.get()).values
      .filter((v) => v.metricName?.endsWith('_count'))
      .map((v) => [`${v.labels.method} ${v.labels.route}`, v.value] as const);
    return { counted: Object.fromEntries(counted), timed: Object.fromEntries(timed) };
  }

  it('should label requests by route template, method and status, refusals before routing included', async () => {
    expect((await client.submitTask({ requestId: 'h-1', handler: 'noop' })).status).toBe(202);
    expect((await client.request('GET', '/api/tasks/h-1')).status).toBe(200);
    expect((await client.request('GET', '/api/tasks/no-such-task')).status).toBe(404);
    const unsigned = await fetch(`${node.url}/api/tasks`, { method: 'POST', body: '{}' });
    expect(unsigned.status).toBe(401); // refused by the signature middleware, before any route ran
    for (const path of ['/wp-login.php', '/.env', '/console/../etc/passwd'])
      expect((await fetch(`${node.url}${path}`)).status).toBe(404);
    expect((await fetch(`${node.url}/api/no/such/route`)).status).toBe(401); // every /api path needs a signature
    expect((await client.request('GET', '/api/no/such/route')).status).toBe(404);
    expect((await fetch(`${node.url}/metrics`)).status).toBe(200);
    expect((await fetch(`${node.url}/health/live`)).status).toBe(200);
    const expected = {
      counted: {
        'POST /api/tasks 202': 1,
        'GET /api/tasks/:requestId 200': 1,
        'GET /api/tasks/:requestId 404': 1,
        'POST /api/tasks 401': 1,
        'GET unmatched 404': 4,
        'GET unmatched 401': 1,
      },
      timed: { 'POST /api/tasks': 2, 'GET /api/tasks/:requestId': 2, 'GET unmatched': 5 },
    };
    // A request is recorded when its connection is done with the answer, just after the client has read it.
    const total = async () => Object.values((await series()).counted).reduce((a, b) => a + b, 0);
    await waitFor('the last answers recorded', async () => (await total()) >= 9);
    expect(await series()).toEqual(expected);
  });

  it('should serve the series on /metrics', async () => {
    const text = await (await fetch(`${node.url}/metrics`)).text();
    expect(text).toContain('tickwheel_http_requests_total{route="/api/tasks",method="POST",status="202"} 1');
    expect(text).toMatch(
      /tickwheel_http_request_duration_seconds_bucket\{le="0\.005",route="unmatched",method="GET"\}/,
    );
    expect(text).not.toContain('route="/metrics"');
  });
});
