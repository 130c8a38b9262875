import { Injectable, Module } from '@nestjs/common';
import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { JobContext, JobHandler, JobHandlerImpl } from '../../src/modules/execution/index.js';
import { DEFAULT_SCOPES, Scope } from '../../src/modules/metadata/index.js';
import { createJob } from '../utils/jobs.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import {
  clusterEnv,
  signedClient,
  standaloneEnv,
  startNode,
  TestNode,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';

/** Opens the gate a `logs.demo` task with `gate: true` waits on. */
let openGate: () => void = () => undefined;
let gate = new Promise<void>((r) => (openGate = r));

interface DemoParams {
  lines?: number;
  gate?: boolean;
  failFirst?: boolean;
}

/** `logs.demo`: logs `lines` lines (`line <i> of attempt <n>`), waits for the gate if asked, fails attempt 1 if asked. */
@Injectable()
@JobHandler('logs.demo')
class LogsDemoHandler implements JobHandlerImpl {
  async execute(ctx: JobContext): Promise<unknown> {
    const p = (ctx.params ?? {}) as DemoParams;
    for (let i = 0; i < (p.lines ?? 3); i++) ctx.log.info(`line ${i} of attempt ${ctx.attempt}`);
    if (p.gate) {
      ctx.log.warn('waiting for the gate', { attempt: ctx.attempt });
      await gate;
    }
    if (p.failFirst && ctx.attempt === 1) {
      ctx.log.error('failing attempt 1');
      throw new Error('first attempt fails');
    }
    return { ok: true };
  }
}

@Module({ providers: [LogsDemoHandler] })
class LogsDemoModule {}

/** The shapes the API test runs in: standalone (SQLite) and one clustered node (MariaDB + Redis, all roles). */
const shapes: Array<[string, () => Record<string, string>]> = [
  ['standalone', () => standaloneEnv()],
  ['MariaDB + Redis', () => clusterEnv(uniqueNamespace('e2e-logs'))],
];

interface Line {
  id: number;
  attempt: number;
  nodeId: string;
  at: string;
  level: string;
  line: string;
}
interface Page {
  items: Line[];
  next: number | null;
}

/** GET /api/tasks/{requestId}/logs and GET /api/jobs/{code}/instances/{id}/logs (docs/long-tasks.md). */
describe.each(shapes)('handler logs through the API (%s)', (_shape, env) => {
  /** The app that owns the tasks and the job below (unique: the MariaDB tables are shared). */
  const OWNER = `logs-owner-${Date.now()}`;
  let node: TestNode;
  let client: TickwheelClient;
  let stranger: TickwheelClient;

  beforeAll(async () => {
    node = await startNode(env(), { imports: [LogsDemoModule] });
    client = await signedClient(node, OWNER);
    stranger = await signedClient(node);
  }, 30_000);

  afterAll(async () => {
    openGate();
    if (node?.config.shape === 'cluster')
      await deleteNamespaceRows(node.ds, node.config.namespace, { definitions: true });
    await node?.close();
  });

  async function finished(requestId: string): Promise<void> {
    const done = async () => ['SUCCESS', 'FAILED'].includes((await client.getTask(requestId)).body.status as string);
    await waitFor(`task ${requestId} to end`, done, 30_000, 50);
  }

  const text = (p: Page) => p.items.map((l) => `${l.attempt} ${l.level} ${l.line}`);

  it('should return the lines of every attempt in order, pages following the cursor, and filter by attempt', async () => {
    const submit = await client.submitTask({
      requestId: 'logs-two-attempts',
      handler: 'logs.demo',
      params: { lines: 3, failFirst: true },
      maxAttempts: 2,
      retryBackoffMs: 100,
    });
    expect(submit.status).toBe(202);
    await finished('logs-two-attempts');
    const all = await client.request<Page>('GET', '/api/tasks/logs-two-attempts/logs');
    expect(all.status).toBe(200);
    expect(text(all.body)).toEqual([
      '1 info line 0 of attempt 1',
      '1 info line 1 of attempt 1',
      '1 info line 2 of attempt 1',
      '1 error failing attempt 1',
      '2 info line 0 of attempt 2',
      '2 info line 1 of attempt 2',
      '2 info line 2 of attempt 2',
    ]);
    expect(all.body.next).toBeNull();
    const first = all.body.items[0];
    expect(first.nodeId).toBeTruthy();
    expect(new Date(first.at).toISOString()).toBe(first.at);

    const seen: Line[] = [];
    let after: number | null = 0;
    while (after !== null) {
      const page: { body: Page } = await client.request<Page>(
        'GET',
        `/api/tasks/logs-two-attempts/logs?limit=3&after=${after}`,
      );
      expect(page.body.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.body.items);
      after = page.body.next;
    }
    expect(seen).toEqual(all.body.items);

    const second = await client.request<Page>('GET', '/api/tasks/logs-two-attempts/logs?attempt=2');
    expect(text(second.body)).toEqual(text(all.body).slice(4));
  }, 60_000);

  it('should show the lines of a running attempt before it ends', async () => {
    gate = new Promise<void>((r) => (openGate = r));
    await client.submitTask({ requestId: 'logs-live', handler: 'logs.demo', params: { lines: 2, gate: true } });
    await waitFor(
      'the waiting line to show',
      async () => (await client.request<Page>('GET', '/api/tasks/logs-live/logs')).body.items?.length === 3,
      10_000,
      50,
    );
    expect((await client.getTask('logs-live')).body.status).toBe('RUNNING');
    const page = await client.request<Page>('GET', '/api/tasks/logs-live/logs');
    expect(page.body.items[2]).toMatchObject({ level: 'warn', line: 'waiting for the gate {"attempt":1}' });
    openGate();
    await finished('logs-live');
  }, 30_000);

  it("should answer 404 to another app, for a task's and a job instance's logs", async () => {
    expect((await client.submitTask({ requestId: 'logs-mine', handler: 'logs.demo' })).status).toBe(202);
    await finished('logs-mine');
    const theirs = await stranger.request<Page>('GET', '/api/tasks/logs-mine/logs');
    expect(theirs.status).toBe(404);
    expect(JSON.stringify(theirs.body)).not.toContain('line 0');
    expect((await stranger.request('GET', `/api/tasks/logs-mine/logs?appId=${OWNER}`)).status).toBe(403);
    const admin = await signedClient(node, undefined, [...DEFAULT_SCOPES, Scope.ADMIN]);
    const read = await admin.request<Page>('GET', `/api/tasks/logs-mine/logs?appId=${OWNER}`);
    expect(text(read.body)).toEqual([
      '1 info line 0 of attempt 1',
      '1 info line 1 of attempt 1',
      '1 info line 2 of attempt 1',
    ]);

    await createJob(client, { code: 'logs-job', handler: 'logs.demo' });
    const fired = await client.request<{ instanceId: string }>('POST', '/api/jobs/logs-job/trigger', {});
    expect(fired.status).toBe(202);
    const path = `/api/jobs/logs-job/instances/${fired.body.instanceId}/logs`;
    await waitFor('the fire to log', async () => (await client.request<Page>('GET', path)).body.items?.length === 3);
    expect(text((await client.request<Page>('GET', path)).body)).toEqual([
      '1 info line 0 of attempt 1',
      '1 info line 1 of attempt 1',
      '1 info line 2 of attempt 1',
    ]);
    expect((await stranger.request('GET', path)).status).toBe(404);
    expect((await client.request('GET', `/api/jobs/logs-job/instances/${'0'.repeat(36)}/logs`)).status).toBe(404);
  }, 60_000);

  it('should refuse a bad query with a 400 naming the field', async () => {
    const cases: Array<[string, string]> = [
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['limit=abc', 'limit'],
      ['after=-1', 'after'],
      ['after=1.5', 'after'],
      ['attempt=0', 'attempt'],
      ['attempt=x', 'attempt'],
      ['page=2', 'page'],
    ];
    for (const [query, field] of cases) {
      const res = await client.request('GET', `/api/tasks/logs-mine/logs?${query}`);
      expect({ query, status: res.status, field: (res.body as { field?: string }).field }).toEqual({
        query,
        status: 400,
        field,
      });
    }
  });
});

/** The leader's retention loop runs in a real node: with ages of 1 ms, a finished task and its lines go. */
describe('retention loop (standalone)', () => {
  let node: TestNode;
  let client: TickwheelClient;

  beforeAll(async () => {
    const env = standaloneEnv({ RETENTION_FINISHED_MS: '1', RETENTION_LOGS_MS: '1', RETENTION_INTERVAL_MS: '1000' });
    node = await startNode(env, { imports: [LogsDemoModule] });
    client = await signedClient(node);
  }, 30_000);

  afterAll(async () => node?.close());

  it('should remove a finished task with its lines within a few intervals', async () => {
    expect((await client.submitTask({ requestId: 'soon-gone', handler: 'logs.demo' })).status).toBe(202);
    await waitFor(
      'the task to be removed',
      async () => (await client.getTask('soon-gone')).status === 404,
      20_000,
      100,
    );
    const left = (await node.ds.query('SELECT COUNT(*) AS c FROM job_log')) as Array<{ c: number }>;
    expect(Number(left[0].c)).toBe(0);
  }, 30_000);
});
