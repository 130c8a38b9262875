import { SystemClock } from '../../src/common/index.js';
import { ProgressWriter } from '../../src/modules/execution/progress-writer.js';
import {
  JobAttemptRepository,
  JobInstance,
  JobInstanceStatus as S,
  newJobInstance,
  TriggerSource,
} from '../../src/modules/metadata/index.js';
import { MetricsService } from '../../src/modules/observability/index.js';
import { sleep } from '../utils/async.js';
import { clusterEnv, standaloneEnv, startNode, TestNode, uniqueNamespace, waitFor } from '../utils/test-node.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import { instanceQueries, type InstanceQueries } from '../utils/metadata-db.js';

const NS = uniqueNamespace('int-reports');
const shapes: Array<[string, () => Record<string, string>]> = [
  // standalone runs all roles: no reconciler pass (take-back) during the test
  ['SQLite', () => standaloneEnv({ RECONCILE_INTERVAL_MS: '600000' })],
  ['MariaDB', () => clusterEnv(NS, { ROLES: 'api' })],
];

/**
 * The conditional writes of a running attempt's reports (docs/long-tasks.md): progress lands only while the row
 * is RUNNING at the attempt's token (a write still pending when the attempt ended changes nothing), the writer
 * throttles and coalesces per attempt, and a handler's late end marks the later attempts it overlapped.
 */
describe.each(shapes)('attempt reports on %s', (_name, env) => {
  let node: TestNode;
  let instances: InstanceQueries;
  let metrics: MetricsService;

  beforeAll(async () => {
    node = await startNode(env());
    instances = instanceQueries(node.app);
    metrics = node.app.get(MetricsService);
  }, 30_000);

  afterAll(async () => {
    if (node?.config.shape === 'cluster') await deleteNamespaceRows(node.ds, NS);
    await node?.close();
  });

  async function running(token: number): Promise<JobInstance> {
    const now = Date.now();
    const base = { namespace: node.config.namespace, appId: 'int', handler: 'h', dueAt: now, fireTime: now };
    const row = Object.assign(newJobInstance({ ...base, triggerSource: TriggerSource.API }, now), {
      status: S.RUNNING,
      fencingToken: token,
      nodeId: 'n1',
      leaseUntil: now + 60_000,
      startedAt: now,
    });
    await instances.fires.insertIgnore(node.ds.manager, [row]);
    return row;
  }

  const read = async (id: string) => (await instances.reads.findById(id)) as JobInstance;

  it('should store progress only while the row is RUNNING at the reporting token', async () => {
    const row = await running(3);
    const at = Date.now();
    expect(
      await instances.execution.writeProgress([{ instanceId: row.id, fencingToken: 3, progress: 0.25, note: 'a', at }]),
    ).toBe(1);
    expect(
      await instances.execution.writeProgress([
        { instanceId: row.id, fencingToken: 2, progress: 0.5, note: 'old', at },
      ]),
    ).toBe(0);
    await node.ds.query('UPDATE job_instance SET status = ? WHERE id = ?', [S.SUCCESS, row.id]);
    // a report of the same token that was still pending when the attempt ended
    expect(
      await instances.execution.writeProgress([
        { instanceId: row.id, fencingToken: 3, progress: 0.9, note: 'late', at },
      ]),
    ).toBe(0);
    const after = await read(row.id);
    expect([after.progress, after.progressNote, after.progressAt]).toEqual([0.25, 'a', at]);
  });

  it('should write the first report of a window at once and the last at its end; an ended attempt writes the one waiting', async () => {
    const row = await running(1);
    const other = await running(1);
    const writer = new ProgressWriter(instances.execution, metrics, new SystemClock(), {
      longTasks: { progressWriteIntervalMs: 400 },
    });
    const coalesced = async () => (await metrics.progressCoalesced.get()).values[0]?.value ?? 0;
    const before = await coalesced();
    writer.report('a', row.id, 1, 0.1, 'one');
    writer.report('a', row.id, 1, 0.2, 'two');
    writer.report('a', row.id, 1, 7, 'x'.repeat(300)); // clamped to 1, note cut within 256 with its mark
    writer.report('a', row.id, 1, Number.NaN); // ignored
    writer.report('b', other.id, 1, 0.5, 'b');
    await waitFor('the first reports', async () => (await read(row.id)).progress === 0.1, 5000, 20);
    expect((await read(other.id)).progress).toBe(0.5);
    await waitFor('the trailing report', async () => (await read(row.id)).progress === 1, 5000, 20);
    expect((await read(row.id)).progressNote).toBe(`${'x'.repeat(234)} …[66 characters cut]`);
    expect((await coalesced()) - before).toBe(1); // 'two' was replaced by the clamped one
    writer.report('b', other.id, 1, 0.6);
    writer.report('b', other.id, 1, 0.7); // waits for b's window…
    await writer.end('b'); // …until the attempt ends: a finished task shows the last progress it reported
    expect((await read(other.id)).progress).toBe(0.7);
    writer.report('b', other.id, 1, 0.8); // after the end: a new window (the runner stops reports at the end)
    await writer.end('b');
    await sleep(100);
    expect((await read(other.id)).progress).toBe(0.8);
  });

  it("should record a handler's late end and mark the later attempts that started before it", async () => {
    const row = await running(2);
    const attempts = node.app.get(JobAttemptRepository);
    const t0 = Date.now();
    await attempts.startMany(undefined, [{ instanceId: row.id, attempt: 1, nodeId: 'n1', fencingToken: 1 }], t0);
    await attempts.startMany(undefined, [{ instanceId: row.id, attempt: 2, nodeId: 'n2', fencingToken: 2 }], t0 + 10);
    await attempts.startMany(undefined, [{ instanceId: row.id, attempt: 3, nodeId: 'n2', fencingToken: 3 }], t0 + 50);
    await attempts.recordHandlerEnd({
      instanceId: row.id,
      attempt: 1,
      fencingToken: 1,
      endedAt: t0 + 30,
      late: { status: 'FAILED', error: 'e'.repeat(2000) },
    });
    const rows = await attempts.listForInstance(row.id);
    expect(rows.map((a) => [a.attempt, a.handlerEndedAt, a.lateStatus, Boolean(a.overlapsPrevious)])).toEqual([
      [1, t0 + 30, 'FAILED', false],
      [2, null, null, true],
      [3, null, null, false],
    ]);
    expect(rows[0].lateError).toBe(`${'e'.repeat(1001)} …[999 characters cut]`);
  });

  it('should mark a later attempt that still runs (no row yet) and keep the mark when its end writes the row', async () => {
    const row = await running(2);
    await node.ds.query('UPDATE job_instance SET attempt = 2 WHERE id = ?', [row.id]);
    const attempts = node.app.get(JobAttemptRepository);
    const t0 = row.startedAt as number;
    await attempts.startMany(undefined, [{ instanceId: row.id, attempt: 1, nodeId: 'n1', fencingToken: 1 }], t0 - 50);
    const late = { instanceId: row.id, attempt: 1, fencingToken: 1, endedAt: t0 + 30, late: null };
    await attempts.recordHandlerEnd(late);
    const overlapped = (await attempts.listForInstance(row.id)).map((a) => [a.attempt, a.status, a.overlapsPrevious]);
    expect(overlapped.map(([n, st, o]) => [n, st, Boolean(o)])).toEqual([
      [1, 'RUNNING', false],
      [2, 'RUNNING', true],
    ]);
    const end = { instanceId: row.id, attempt: 2, nodeId: 'n1', fencingToken: 2, startedAt: t0, error: null };
    await attempts.endMany(undefined, [{ ...end, status: 'SUCCESS' }], t0 + 100);
    const ended = (await attempts.listForInstance(row.id)).map((a) => [
      a.attempt,
      a.status,
      Boolean(a.overlapsPrevious),
    ]);
    expect(ended).toEqual([
      [1, 'RUNNING', false],
      [2, 'SUCCESS', true],
    ]);
  });
});
