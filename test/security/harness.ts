import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { TickwheelResponse } from '../../src/client/tickwheel-client.js';
import { DEFAULT_SCOPES, Scope } from '../../src/modules/metadata/index.js';
import { type ClientLimits } from '../../src/modules/openapi/index.js';
import { namespaceRows, rowsDiff, type NamespaceRows } from '../utils/namespace-rows.js';
import { rawRequest } from '../utils/raw-http.js';
import { expectProblem, WITH_SHELL } from '../utils/tenancy.js';
import { type AppClient, signedClient, startNode, TestNode, UNLIMITED, waitFor } from '../utils/test-node.js';
import { createJob } from '../utils/jobs.js';

/** A signed client of one app of the suite, with its id and secret (to sign by hand: v1, replays). */
export type App = AppClient;
type Job = { id: string; code: string };

/** What every case of the hostile-input suite works with; filled in by the suite's beforeAll. */
export interface Hostile {
  shape: 'standalone' | 'cluster';
  node: TestNode;
  /** The namespace whose rows each case snapshots. */
  namespace: string;
  /** Every app id of this run starts with it (the cluster's api_client table is shared with other tests). */
  prefix: string;
  /** Two ordinary apps (default scopes), an admin, an app with `shell`, one with no scope at all; all unlimited. */
  a: App;
  b: App;
  admin: App;
  shell: App;
  bare: App;
  /** Per default scope, an app holding every other default scope but not this one. */
  lacking: Map<Scope, App>;
  /** A's job (noop, paused, a bearer token in params) with one finished manual run, and A's finished task. */
  jobA: Job;
  instanceA: string;
  taskA: string;
  /** B's own paused job, and a paused shell job of the shell app. */
  jobB: Job;
  shellJob: Job;
  /**
   * An HTTP receiver the egress policy lets the suite reach (EGRESS_ALLOW=*,127.0.0.1:<its port>): the request ids
   * it was called with, the callbacks it got (path, deliveryId, when), and how it answers a path (a status, or
   * 'hold': no answer until the connection closes; default 200).
   */
  receiver: {
    url: string;
    hits: string[];
    callbacks: Array<{ path: string; deliveryId: string; at: number }>;
    answer: (path: string) => number | 'hold';
  };
  /** Creates one more app of this run (its id starts with {@link prefix}). */
  newApp(name: string, scopes?: readonly Scope[], limits?: ClientLimits): Promise<App>;
  rows(): Promise<NamespaceRows>;
  /**
   * Runs `attack`, then asserts that no row of the namespace changed (job definitions, instances, attempts, audit,
   * the run's clients), that `/health/ready` still answers 200, and that nothing polluted Object.prototype.
   */
  unchanged(attack: () => Promise<void>): Promise<void>;
  /** A request with the target and headers exactly as given (see rawRequest), as a TickwheelResponse. */
  raw(
    method: string,
    path: string,
    headers?: Record<string, string | string[]>,
    body?: string | Buffer,
  ): Promise<TickwheelResponse<Record<string, unknown>>>;
}

export const TOKEN = 'Bearer a-very-secret-token';

/**
 * Asserts a problem+json answer (RFC 9457) with `status` and `code`, and `field` / `scope` when given; returns its body.
 */
export function refused(
  res: TickwheelResponse,
  status: number,
  code: string,
  want: { field?: string; scope?: string } = {},
): Record<string, unknown> {
  const problem = expectProblem(res, status, want);
  expect(problem.code).toBe(code);
  return problem;
}

/** The 401 every signature failure answers (README "Signing"). */
export const unauthorized = (res: TickwheelResponse) => refused(res, 401, 'UNAUTHORIZED');

/**
 * Registers the suite's beforeAll/afterAll for one shape (one node, its clients and fixtures, made once) and
 * returns the context the cases read once it ran.
 */
export function hostileHarness(
  shape: Hostile['shape'],
  env: (extra?: Record<string, string>) => Record<string, string>,
): Hostile {
  const h = { shape, lacking: new Map() } as Hostile;
  let receiver: Server;
  beforeAll(async () => {
    const hits: string[] = [];
    const callbacks: Hostile['receiver']['callbacks'] = [];
    receiver = createServer((req, res) => {
      const delivery = req.headers['x-tickwheel-delivery'];
      if (delivery) callbacks.push({ path: req.url ?? '', deliveryId: String(delivery), at: Date.now() });
      else hits.push(String(req.headers['x-tickwheel-request-id']));
      req.resume();
      const answer = h.receiver.answer(req.url ?? '');
      if (answer !== 'hold') res.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const port = (receiver.address() as AddressInfo).port;
    h.receiver = { url: `http://127.0.0.1:${port}`, hits, callbacks, answer: () => 200 };
    h.node = await startNode(env({ EGRESS_ALLOW: `*,127.0.0.1:${port}` }));
    h.namespace = h.node.config.namespace;
    h.prefix = `hx${randomBytes(3).toString('hex')}`;
    h.newApp = (name, scopes = DEFAULT_SCOPES, limits = UNLIMITED) =>
      signedClient(h.node, `${h.prefix}-${name}`, scopes, limits);
    h.rows = () => namespaceRows(h.node.ds, h.namespace, shape === 'cluster' ? h.prefix : undefined);
    h.unchanged = (attack) => unchanged(h, attack);
    h.raw = async (method, path, headers, body) => {
      const res = await rawRequest(h.node.url, method, path, headers, body);
      return {
        status: res.status,
        body: res.body as Record<string, unknown>,
        headers: new Headers(
          Object.entries(res.headers).flatMap(([k, v]) =>
            v === undefined ? [] : [[k, String(v)] as [string, string]],
          ),
        ),
      };
    };
    [h.a, h.b, h.admin, h.shell, h.bare] = await Promise.all([
      h.newApp('a'),
      h.newApp('b'),
      h.newApp('admin', [Scope.ADMIN]),
      h.newApp('shell', WITH_SHELL),
      h.newApp('bare', []),
    ]);
    for (const s of DEFAULT_SCOPES)
      h.lacking.set(
        s,
        await h.newApp(
          `no-${s.replace(':', '-')}`,
          DEFAULT_SCOPES.filter((x) => x !== s),
        ),
      );
    await fixtures(h);
  }, 60_000);
  afterAll(async () => {
    await h.node?.close();
    receiver?.closeAllConnections();
    receiver?.close();
  });
  return h;
}

/** A paused job of each app, a finished run of A's job and a finished task of A: what B aims at. */
async function fixtures(h: Hostile): Promise<void> {
  const paused = (code: string, extra: Record<string, unknown> = {}) => ({
    code,
    handler: 'noop',
    triggerType: 'CRON',
    triggerExpr: '0 0 3 * * *',
    enabled: false,
    ...extra,
  });
  h.jobA = await createJob(h.a, paused('nightly', { params: { headers: { Authorization: TOKEN } } }));
  h.jobB = await createJob(h.b, paused('mine'));
  h.shellJob = await createJob(h.shell, paused('sh', { handler: 'shell', params: { argv: ['/bin/true'] } }));
  const run = await h.a.request<{ instanceId: string }>('POST', `/api/jobs/${h.jobA.id}/trigger`, {});
  expect(run.status).toBe(202);
  h.instanceA = run.body.instanceId;
  h.taskA = `${h.prefix}-task`;
  expect((await h.a.submitTask({ requestId: h.taskA, handler: 'noop' })).status).toBe(202);
  await waitFor("A's run and task to finish", async () => {
    const [run1, task] = [
      await h.a.request<{ status: string }>('GET', `/api/jobs/${h.jobA.id}/instances/${h.instanceA}`),
      await h.a.getTask(h.taskA),
    ];
    return run1.body.status === 'SUCCESS' && task.body.status === 'SUCCESS';
  });
}

async function unchanged(h: Hostile, attack: () => Promise<void>): Promise<void> {
  const before = await h.rows();
  await attack();
  const after = await h.rows();
  // the rows themselves, not only their ids: a row written by a background loop must say which loop wrote it
  const diff = Object.entries(rowsDiff(before, after)).map(([table, d]) => ({
    table,
    added: d.added.map((id) => after[table as keyof NamespaceRows][id]),
    changed: d.changed.map((id) => [before[table as keyof NamespaceRows][id], after[table as keyof NamespaceRows][id]]),
    removed: d.removed,
  }));
  expect(diff).toEqual([]);
  // once more on a network error: a pooled socket the server closed as idle while the attack ran
  const ready = await fetch(`${h.node.url}/health/ready`).catch(() => fetch(`${h.node.url}/health/ready`));
  expect(ready.status).toBe(200);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}
