import { jest } from '@jest/globals';
import { InstanceIntake, type JobInstance } from '../../src/modules/metadata/index.js';
import { sleep, waitFor } from '../utils/async.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import {
  type AppClient,
  clusterEnv,
  signedClient,
  startNode,
  type TestNode,
  uniqueNamespace,
  UNLIMITED,
} from '../utils/test-node.js';

type Task = Record<string, unknown>;
type Answer = Awaited<ReturnType<AppClient['submitTask']>>;

/**
 * Two overlapping group writes of one app's single submits (SubmitCoalescer, docs/api.md "Idempotency and submits") on the
 * real MariaDB: a write held by hand stands for a stalled commit. A submit of the same requestId arriving meanwhile
 * goes in a second group beside it and is answered without waiting; the unique (app_id, request_id) key leaves one
 * row, and each submit gets the answer of the order the database saw: the creator's first answer, a replay, a 409.
 */
describe('Overlapping submit groups with one requestId (MariaDB)', () => {
  const ns = uniqueNamespace('int-overlap');
  let node: TestNode;
  let client: AppClient;
  let intake: InstanceIntake;

  beforeAll(async () => {
    node = await startNode(clusterEnv(ns, { ROLES: 'api', LOG_LEVEL: 'error' }));
    client = await signedClient(node, `ovl-${ns.slice(-8)}`, undefined, UNLIMITED);
    intake = node.app.get(InstanceIntake);
  }, 60_000);
  afterAll(async () => {
    await deleteNamespaceRows(node?.ds, ns);
    await node?.close();
  });
  afterEach(() => jest.restoreAllMocks());

  /** Holds the next one-row group write before (`before`) or after its INSERT until `release()`. */
  function holdNextWrite(when: 'before' | 'after') {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let held = false;
    const real = intake.insertOrGet.bind(intake);
    jest.spyOn(intake, 'insertOrGet').mockImplementationOnce(async (row: JobInstance) => {
      held = true;
      if (when === 'before') await gate;
      const written = await real(row);
      if (when === 'after') await gate;
      return written;
    });
    return { release, isHeld: async () => held };
  }

  const task = (requestId: string, v = 1) => ({ requestId, handler: 'greet', params: { v } });
  const replayed = (a: Answer) => a.headers.get('idempotent-replayed') === 'true';
  const rows = async (requestId: string) =>
    (await node.ds.query('SELECT params FROM job_instance WHERE namespace = ? AND request_id = ?', [ns, requestId]))
      .length as number;

  /** Sends the first submit into a held write, then the second once the first write has run past the overlap. */
  async function overlapping(when: 'before' | 'after', first: Task, second: Task) {
    const hold = holdNextWrite(when);
    const one = client.submitTask(first);
    await waitFor('the first group write', hold.isHeld, 10_000, 5);
    await sleep(150); // past SUBMIT_WRITES.overlapAfterMs (50 ms)
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'held'>((r) => (timer = setTimeout(() => r('held'), 5_000)));
    const two = await Promise.race([client.submitTask(second), late]);
    clearTimeout(timer);
    hold.release();
    return { one: await one, two };
  }

  it('should answer a duplicate beside a stalled write at once; the write that inserts first creates the task', async () => {
    const { one, two } = await overlapping('before', task('dup-1'), task('dup-1'));
    if (two === 'held') throw new Error('the second group waited for the stalled one');
    expect([two.status, replayed(two)]).toEqual([202, false]);
    expect([one.status, replayed(one)]).toEqual([202, true]);
    expect(one.body).toMatchObject({ requestId: 'dup-1' });
    expect(await rows('dup-1')).toBe(1);
  }, 30_000);

  it('should refuse the stalled write of another body with a 409 once the overlapping one created the task', async () => {
    const { one, two } = await overlapping('before', task('clash-1', 1), task('clash-1', 2));
    if (two === 'held') throw new Error('the second group waited for the stalled one');
    expect(two.status).toBe(202);
    expect(one.status).toBe(409);
    expect(one.body).toMatchObject({ code: 'CONFLICT', field: 'requestId' });
    const stored = await node.ds.query('SELECT params FROM job_instance WHERE namespace = ? AND request_id = ?', [
      ns,
      'clash-1',
    ]);
    expect(stored).toHaveLength(1);
    expect(JSON.parse(String(stored[0].params))).toEqual({ v: 2 });
  }, 30_000);

  it('should replay a row written by a write whose answer is still held, and give its creator the first answer', async () => {
    const { one, two } = await overlapping('after', task('late-1'), task('late-1'));
    if (two === 'held') throw new Error('the second group waited for the stalled one');
    expect([two.status, replayed(two)]).toEqual([202, true]);
    expect([one.status, replayed(one)]).toEqual([202, false]);
    expect(one.body).toEqual({ requestId: 'late-1', status: 'PENDING', estimatedDelay: 0 });
    expect(await rows('late-1')).toBe(1);
  }, 30_000);
});
