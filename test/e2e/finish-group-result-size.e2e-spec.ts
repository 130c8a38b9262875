import { Injectable, Module } from '@nestjs/common';
import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { JobContext, JobHandler, JobHandlerImpl } from '../../src/modules/execution/index.js';
import {
  clusterEnv,
  signedClient,
  startNode,
  statusCounts,
  TestNode,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';

/** Opens once the test has every task RUNNING, so all handlers end in one event-loop turn (one finishing group). */
let openGate: () => void = () => undefined;
let gate = new Promise<void>((r) => (openGate = r));

/** The result a task asks for by `params.kind`. */
function resultOf(kind: string, i: number): unknown {
  switch (kind) {
    case 'wide':
      return { text: '€'.repeat(40_000) }; // 40,012 JSON characters, 120,012 UTF-8 bytes
    case 'huge':
      return { text: 'x'.repeat(100_000) }; // over the 65,536-character cap: stored as a truncated excerpt
    case 'quotes':
      return { text: '"'.repeat(40_000) }; // each quote is escaped in JSON: 80,012 characters
    default:
      return { i };
  }
}

/** `shape.result`: waits for the gate, then returns the result `params.kind` asks for. */
@Injectable()
@JobHandler('shape.result')
class ResultShapeHandler implements JobHandlerImpl {
  async execute(ctx: JobContext): Promise<unknown> {
    await gate;
    const p = ctx.params as { kind: string; i: number };
    if (p.kind === 'throw') throw new Error('é'.repeat(100_000)); // 200,000 bytes of error text
    return resultOf(p.kind, p.i);
  }
}

@Module({ providers: [ResultShapeHandler] })
class ResultShapeModule {}

/**
 * A SUCCESS result that does not fit MariaDB's TEXT column (65,535 bytes) once stored: many multi-byte
 * characters under the character cap, or a result over the cap whose truncated excerpt (JSON escaped
 * inside JSON) is longer than the cap again. Finishes are written in groups (one transaction per group),
 * so the write of such a result used to fail the whole group with ER_DATA_TOO_LONG: every other task that
 * ended in the same turn stayed RUNNING until its lease ran out and then ran a second time. A handler
 * error message over the error column's size did the same.
 */
describe('finishing group with a result too large for the result column (MariaDB + Redis)', () => {
  const ns = uniqueNamespace('e2e-bigres');
  let api: TestNode;
  let executor: TestNode;
  let client: TickwheelClient;

  beforeAll(async () => {
    // The product's 15-s offline threshold (as test/utils/task-shapes.ts explains): a CI worker starved for 3 s
    // must not get the executor declared offline and the held tasks run twice.
    api = await startNode(clusterEnv(ns, { ROLES: 'api,scheduler', NODE_OFFLINE_AFTER_MS: '15000' }));
    executor = await startNode(
      clusterEnv(ns, { ROLES: 'executor', EXECUTOR_CONCURRENCY: '64', NODE_OFFLINE_AFTER_MS: '15000' }),
      { imports: [ResultShapeModule] },
    );
    client = await signedClient(api);
    await waitFor(
      'executor to advertise shape.result',
      async () => {
        const nodes = await client.request<{ items: Array<{ handlers: string[] }> }>(
          'GET',
          '/api/nodes?handler=shape.result',
        );
        return nodes.body.items.some((n) => n.handlers.includes('shape.result'));
      },
      30_000,
    );
  }, 60_000);

  afterAll(async () => {
    openGate();
    await executor?.close();
    await deleteNamespaceRows(api?.ds, ns);
    await api?.close();
  });

  it('should record every task of the group at once, the oversized results and error stored bounded', async () => {
    gate = new Promise<void>((r) => (openGate = r));
    const odd = ['wide', 'huge', 'quotes'];
    const tasks = [
      ...Array.from({ length: 20 }, (_, i) => ({
        requestId: `plain-${i}`,
        handler: 'shape.result',
        params: { kind: 'plain', i },
      })),
      ...odd.map((kind) => ({ requestId: kind, handler: 'shape.result', params: { kind, i: 0 } })),
      { requestId: 'throw', handler: 'shape.result', params: { kind: 'throw', i: 0 } },
    ];
    const succeeding = tasks.length - 1;
    expect((await client.submitTasks(tasks)).status).toBe(202);
    await waitFor(
      'all tasks RUNNING',
      async () => (await statusCounts(api.ds, ns)).RUNNING === tasks.length,
      30_000,
      50,
    );
    openGate();
    // The lease is 180 s: a group that failed would leave its rows RUNNING far beyond this wait.
    await waitFor(
      'all tasks ended',
      async () => {
        const c = await statusCounts(api.ds, ns);
        return c.SUCCESS === succeeding && c.FAILED === 1;
      },
      60_000,
      50,
    ).catch(async (err: Error) => {
      throw new Error(`${err.message}; statuses now ${JSON.stringify(await statusCounts(api.ds, ns))}`);
    });
    for (let i = 0; i < 20; i++) expect((await client.getTask(`plain-${i}`)).body.result).toEqual({ i });
    for (const kind of odd) {
      const rows: Array<{ result: string; bytes: number | string }> = await api.ds.query(
        'SELECT result, OCTET_LENGTH(result) AS bytes FROM job_instance WHERE namespace = ? AND request_id = ?',
        [ns, kind],
      );
      expect(Number(rows[0].bytes)).toBeLessThanOrEqual(65_535);
      const stored = JSON.parse(rows[0].result) as { truncated?: boolean; excerpt?: string };
      expect(stored.truncated).toBe(true);
      // The excerpt is the result's start, marked as cut (cutText: " …[N characters cut]").
      const excerpt = /^([\s\S]*) …\[(\d+) characters cut\]$/.exec(stored.excerpt as string);
      expect(excerpt).not.toBeNull();
      const whole = JSON.stringify(resultOf(kind, 0));
      expect(whole.startsWith(excerpt?.[1] as string)).toBe(true);
      expect(Number(excerpt?.[2])).toBe(whole.length - (excerpt?.[1] as string).length);
    }
    const attempts: Array<{ status: string; c: string }> = await api.ds.query(
      'SELECT a.status, COUNT(*) AS c FROM job_attempt a JOIN job_instance i ON i.id = a.instance_id WHERE i.namespace = ? GROUP BY a.status',
      [ns],
    );
    expect(Object.fromEntries(attempts.map((a) => [a.status, Number(a.c)]))).toEqual({
      SUCCESS: succeeding,
      FAILED: 1,
    });
    const failed = (await client.getTask('throw')).body as { error: string };
    expect(failed.error.length).toBeGreaterThan(1000);
    const cut = /^(é+) …\[(\d+) characters cut\]$/.exec(failed.error);
    expect(Number(cut?.[2])).toBe(100_000 - (cut?.[1].length ?? 0));
  }, 150_000);
});
