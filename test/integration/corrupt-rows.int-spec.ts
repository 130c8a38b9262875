import { COORDINATION, type CoordinationPort } from '../../src/modules/coordination/index.js';
import { ReconcilerService } from '../../src/modules/dispatch/index.js';
import { TaskRunner } from '../../src/modules/execution/task-runner.service.js';
import {
  JobInstance,
  JobInstanceStatus as S,
  newJobInstance,
  TriggerSource,
} from '../../src/modules/metadata/index.js';
import { MetricsService } from '../../src/modules/observability/index.js';
import { TriggerService } from '../../src/modules/trigger/index.js';
import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { clusterEnv, signedClient, standaloneEnv, startNode, TestNode, uniqueNamespace } from '../utils/test-node.js';
import { neverFiringJob } from '../utils/jobs.js';
import { instanceQueries, type InstanceQueries } from '../utils/metadata-db.js';

/**
 * A row whose stored JSON cannot be read (docs/dispatch.md "Quarantine"; a TEXT cut at 65,535 bytes on MariaDB; text
 * that is not JSON on SQLite) never stops a background loop. The reconciler quarantines it (FAILED, CORRUPT_ROW, a
 * metric, a log) and goes on with the rest of its pass: the 10 RUNNING rows of the dead executor beside it are taken
 * back. An executor that claims such a row fails it without running the handler, once (no retry). The API reads and
 * cancels it, the unreadable field shown as null with a note.
 *
 * Cluster: the node runs api and executor roles but no scheduler, so no pass runs but the ones the test asks for.
 */
const shapes: Array<[string, () => Record<string, string>]> = [
  ['SQLite', () => standaloneEnv({ RECONCILE_INTERVAL_MS: '600000' })],
  [
    'MariaDB',
    () => clusterEnv(uniqueNamespace('int-corrupt'), { ROLES: 'api,executor', RECONCILE_INTERVAL_MS: '600000' }),
  ],
];

describe.each(shapes)('corrupt rows (%s)', (shape, env) => {
  let node: TestNode;
  let client: TickwheelClient;
  let instances: InstanceQueries;
  let coordination: CoordinationPort;
  const appId = `corrupt-${Date.now()}`;
  let ns: string;
  let dead: string;

  beforeAll(async () => {
    node = await startNode(env());
    client = await signedClient(node, appId);
    instances = instanceQueries(node.app);
    coordination = node.app.get<CoordinationPort>(COORDINATION);
    ns = node.config.namespace;
    dead = `${ns}-dead-${Date.now()}`;
  });
  afterAll(async () => {
    await coordination?.removeNode(dead);
    await node?.close();
  });

  /** A row of `ns` (handler `h`, advertised by no node) with `patch`, inserted as the product inserts rows. */
  async function insert(patch: Partial<JobInstance>): Promise<JobInstance> {
    const now = Date.now();
    const row = Object.assign(
      newJobInstance(
        {
          namespace: ns,
          appId,
          handler: 'h',
          fireTime: now,
          triggerSource: TriggerSource.API,
          dueAt: now,
          maxAttempts: 3,
        },
        now,
      ),
      patch,
    );
    await instances.fires.insertIgnore(node.ds.manager, [row]);
    return row;
  }

  /** Makes `column` of row `id` unreadable as JSON: MariaDB cuts a 70 KB text at 65,535 bytes (UPDATE IGNORE); SQLite keeps any text. */
  async function corrupt(id: string, column: 'params' | 'result', table = 'job_instance'): Promise<number> {
    const text = JSON.stringify({ blob: 'x'.repeat(70_000) });
    if (shape === 'MariaDB') await node.ds.query(`UPDATE IGNORE ${table} SET ${column} = ? WHERE id = ?`, [text, id]);
    else await node.ds.query(`UPDATE ${table} SET ${column} = ? WHERE id = ?`, [text.slice(0, 65_535), id]);
    const [raw] = await node.ds.query(`SELECT ${column} AS v FROM ${table} WHERE id = ?`, [id]);
    return Buffer.byteLength(raw.v as string);
  }

  const read = (id: string) =>
    node.ds
      .query('SELECT status, attempt, error FROM job_instance WHERE id = ?', [id])
      .then((r: Array<{ status: string; attempt: number | string; error: string | null }>) => ({
        ...r[0],
        attempt: Number(r[0].attempt),
      }));

  async function quarantined(): Promise<number> {
    const metric = (await node.app.get(MetricsService).registry.getMetricsAsJSON()).find(
      (m) => m.name === 'tickwheel_rows_quarantined_total',
    );
    return (metric?.values ?? []).reduce((sum, v) => sum + Number(v.value), 0);
  }

  it("the pass quarantines the corrupt row and still takes back the dead executor's 10 RUNNING rows", async () => {
    const now = Date.now();
    // The executor `dead` last beat long before the offline threshold: the next pass declares it offline.
    await coordination.heartbeat(
      dead,
      { handlers: ['h'], capacity: 16, active: 11, labels: {}, host: 'x', startedAt: now - 3_600_000 },
      now - 3_600_000,
    );
    const running = {
      status: S.RUNNING,
      nodeId: dead,
      fencingToken: 1,
      leaseUntil: now + 3_600_000,
      startedAt: now - 1000,
      dispatchedAt: now - 1000,
    };
    const ten = await Promise.all(Array.from({ length: 10 }, () => insert(running)));
    const bad = await insert(running);
    const bytes = await corrupt(bad.id, 'params');
    expect(bytes).toBe(65_535);
    const before = await quarantined();

    await node.app.get(ReconcilerService).reconcileOnce();

    for (const row of ten) expect(await read(row.id)).toMatchObject({ status: S.PENDING, attempt: 2 });
    expect(await read(bad.id)).toEqual({
      status: S.FAILED,
      attempt: 1,
      error: `CORRUPT_ROW: params is not valid JSON (${bytes} bytes)`,
    });
    expect(await quarantined()).toBe(before + 1);
    const task = await client.getTask(bad.requestId);
    expect(task.status).toBe(200);
    expect(task.body).toMatchObject({ status: S.FAILED, note: expect.stringMatching(/params.*not valid JSON/) });
    await node.app.get(ReconcilerService).reconcileOnce(); // a second pass finds nothing more to do
    expect(await quarantined()).toBe(before + 1);
  }, 30_000);

  it('the API reads and cancels a corrupt task, the unreadable field shown as null with a note', async () => {
    const waiting = await insert({ dueAt: Date.now() + 3_600_000 });
    await corrupt(waiting.id, 'params');
    const done = await insert({ status: S.SUCCESS, finishedAt: Date.now() });
    await corrupt(done.id, 'result');

    const shown = await client.getTask(done.requestId);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({
      status: S.SUCCESS,
      result: null,
      note: expect.stringMatching(/result.*not valid JSON/),
    });
    const pending = await client.getTask(waiting.requestId);
    expect(pending.status).toBe(200);
    expect(pending.body.note).toMatch(/params.*not valid JSON/);
    const cancelled = await client.request<{ status: string }>('POST', `/api/tasks/${waiting.requestId}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe(S.CANCELLED);
  });

  it('an executor that claims a corrupt row fails it without running the handler, and does not retry it', async () => {
    const node2 = `${ns}-claimer`;
    const row = await insert({ handler: 'noop', status: S.DISPATCHED, nodeId: node2, dispatchedAt: Date.now() });
    const bytes = await corrupt(row.id, 'params');

    await node.app.get(TaskRunner).run(row.id, node2, new AbortController().signal);

    expect(await read(row.id)).toEqual({
      status: S.FAILED,
      attempt: 1,
      error: `CORRUPT_ROW: params is not valid JSON (${bytes} bytes)`,
    });
    const attempts = await node.ds.query('SELECT status, error FROM job_attempt WHERE instance_id = ?', [row.id]);
    expect(attempts).toEqual([{ status: S.FAILED, error: `CORRUPT_ROW: params is not valid JSON (${bytes} bytes)` }]);
  });

  it('a job whose stored params cannot be read stops its schedule in ERROR, reads with a note, and takes new params', async () => {
    const job = await client.request<{ id: string }>('POST', '/api/jobs', {
      ...neverFiringJob(`corrupt-${Date.now()}`),
      params: { a: 1 },
    });
    expect(job.status).toBe(201);
    const id = job.body.id;
    const bytes = await corrupt(id, 'params', 'job_definition');
    const reason = `params is not valid JSON (${bytes} bytes)`;

    const read = await client.request<{ params: unknown; note: string }>('GET', `/api/jobs/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.params).toBeNull();
    expect(read.body.note).toContain(reason);
    expect((await client.request<{ field: string }>('POST', `/api/jobs/${id}/trigger`)).body).toMatchObject({
      status: 400,
      field: 'params',
    });
    expect(
      (await client.request<{ field: string }>('PATCH', `/api/jobs/${id}`, { description: 'x' })).body,
    ).toMatchObject({ status: 400, field: 'params' });
    const backfill = {
      from: new Date(Date.now() - 86_400_000 * 400).toISOString(),
      to: new Date(Date.now() - 1000).toISOString(),
    };
    expect((await client.request<{ field: string }>('POST', `/api/jobs/${id}/backfill`, backfill)).body).toMatchObject({
      status: 400,
      field: 'params',
    });

    // Due now: the firing pass sets the schedule aside instead of failing the page it is on.
    await node.ds.query('UPDATE job_definition SET next_fire_time = ? WHERE id = ?', [Date.now() - 100, id]);
    const before = await quarantined();
    await node.app.get(TriggerService).firePass();
    const [row] = await node.ds.query(
      'SELECT schedule_state AS s, schedule_error AS e, next_fire_time AS n FROM job_definition WHERE id = ?',
      [id],
    );
    expect(row).toEqual({ s: 'ERROR', e: `CORRUPT_ROW: ${reason}`, n: null });
    expect(await quarantined()).toBe(before + 1);
    expect(Number((await node.ds.query('SELECT COUNT(*) AS c FROM job_instance WHERE job_id = ?', [id]))[0].c)).toBe(0);

    const fixed = await client.request<{ params: unknown; scheduleState: string }>('PATCH', `/api/jobs/${id}`, {
      params: { a: 2 },
      triggerExpr: '0 0 0 1 1 *',
    });
    expect(fixed.status).toBe(200);
    expect(fixed.body).toMatchObject({ params: { a: 2 }, scheduleState: 'OK' });
    expect((await client.request('POST', `/api/jobs/${id}/trigger`)).status).toBe(202);
  });
});
