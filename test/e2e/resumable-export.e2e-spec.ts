import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { renderPage } from '../../examples/resumable-export/export-params.js';
import { pageCounts, readJournal, resumes } from '../utils/export-journal.js';
import { ProductProcess, startProcess } from '../utils/process-node.js';
import {
  clusterEnv,
  liveExecutors,
  signedClient,
  startNode,
  TestNode,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';

type Row = Record<string, unknown>;

const PAGES = 100;
const EVERY = 5;

/**
 * Checkpoints across real process deaths (docs/long-tasks.md "Checkpoints"): the example
 * examples/resumable-export runs as executor processes, writes 100 pages with a checkpoint every 5, and journals
 * each page it writes. An executor SIGKILLed at a random page, twice, and one SIGTERMed (hand-back after a short
 * grace): each next attempt runs on another node, starts at the last checkpoint, no page is written more than
 * twice (a kill costs at most 5 pages; a graceful stop none) and the export ends exactly complete.
 * Heartbeat 0.5 s, offline after 3 s, lease 2 s: a killed node's attempt is taken back by whichever ends first.
 */
describe('resumable export across executor kills (real processes)', () => {
  const ns = uniqueNamespace('e2e-resume');
  const dir = mkdtempSync(join(tmpdir(), 'tw-export-'));
  const executorEnv = (name: string) =>
    clusterEnv(ns, {
      ROLES: 'executor',
      PORT: '0',
      NODE_NAME: name,
      NODE_OFFLINE_AFTER_MS: '3000',
      LEASE_MS: '2000',
      LEASE_RENEW_MS: '500',
      EXECUTOR_SHUTDOWN_GRACE_MS: '300',
      EXPORT_DIR: dir,
    });
  let api: TestNode;
  let client: TickwheelClient;
  const procs = new Map<string, ProductProcess>();

  const row = async (requestId: string): Promise<Row> =>
    (
      (await api.ds.query(
        'SELECT status, attempt, node_id, result FROM job_instance WHERE namespace = ? AND request_id = ?',
        [ns, requestId],
      )) as Row[]
    )[0];
  const trail = async (requestId: string) =>
    (
      (await api.ds.query(
        `SELECT a.attempt, a.status FROM job_attempt a JOIN job_instance i ON i.id = a.instance_id
         WHERE i.namespace = ? AND i.request_id = ? ORDER BY a.attempt`,
        [ns, requestId],
      )) as Row[]
    ).map((a) => `${a.attempt} ${a.status}`);
  const live = () => liveExecutors(api);
  const startExecutor = async (name: string) => {
    const proc = startProcess(executorEnv(name), { script: 'dist/examples/resumable-export/main.js' });
    procs.set(name, proc);
    await waitFor(`executor ${name} to beat`, async () => (await live()).includes(name), 30_000);
    // Its listening line is one JSON object, as the product's lines (examples/resumable-export/README.md).
    const listening = () =>
      proc
        .output()
        .split('\n')
        .find((l) => l.includes('executor listening on'));
    await waitFor(`executor ${name} to listen`, async () => listening() !== undefined, 30_000);
    expect(JSON.parse(listening()!)).toMatchObject({ level: 30, msg: expect.stringMatching(/^export.resumable /) });
  };
  const submit = async (requestId: string) => {
    const params = { file: `${requestId}.csv`, pages: PAGES, checkpointEvery: EVERY, pageDelayMs: 60 };
    const sub = await client.submitTask({ requestId, handler: 'export.resumable', params, maxAttempts: 5 });
    expect(sub.status).toBe(202);
  };
  /** Waits until attempt `attempt` has written page `page` or later; returns the node running it. */
  const reach = async (requestId: string, attempt: number, page: number): Promise<string> => {
    const journal = join(dir, `${requestId}.csv.journal`);
    await waitFor(
      `${requestId} attempt ${attempt} at page ${page}`,
      async () => readJournal(journal).some((e) => e.attempt === attempt && e.page >= page),
      60_000,
      10,
    );
    return String((await row(requestId)).node_id).split('-')[0];
  };
  const randomPage = (from: number, to: number) => from + Math.floor(Math.random() * (to - from));
  /** The export is exactly complete, each page written once or twice, and the task says how it went. */
  const expectComplete = async (requestId: string) => {
    await waitFor(`${requestId} SUCCESS`, async () => (await row(requestId)).status === 'SUCCESS', 60_000);
    const file = readFileSync(join(dir, `${requestId}.csv`), 'utf8');
    expect(file).toBe(Array.from({ length: PAGES }, (_, p) => renderPage(p)).join(''));
    const counts = pageCounts(readJournal(join(dir, `${requestId}.csv.journal`)), PAGES);
    expect(Math.min(...counts)).toBe(1);
    expect(Math.max(...counts)).toBeLessThanOrEqual(2);
    const view = (await client.getTask(requestId)).body as Record<string, unknown>;
    const last = Number((await row(requestId)).attempt);
    expect(view).toMatchObject({ status: 'SUCCESS', checkpointAttempt: last });
    expect(view.checkpointAt).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/));
    expect(view.result).toMatchObject({ pages: PAGES, bytes: Buffer.byteLength(file), attempt: last });
    return { counts, result: view.result as { resumedAt: number } };
  };

  beforeAll(async () => {
    api = await startNode(clusterEnv(ns, { ROLES: 'api,scheduler', NODE_OFFLINE_AFTER_MS: '3000' }));
    client = await signedClient(api);
    await Promise.all([startExecutor('xa'), startExecutor('xb')]);
  }, 60_000);

  afterAll(async () => {
    for (const p of procs.values()) await p.stop(3000);
    await api?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('should resume at the last checkpoint on another node after each of two SIGKILLs, no page written more than twice', async () => {
    await submit('kill');
    const kills: number[] = [];
    for (const [attempt, page] of [
      [1, randomPage(8, 45)],
      [2, randomPage(55, 90)],
    ]) {
      const victim = await reach('kill', attempt, page);
      procs.get(victim)?.signal('SIGKILL');
      kills.push(Date.now());
      await reach('kill', attempt + 1, 0);
      // taken back by whichever comes first: the node's offline threshold or its lease's end
      expect((await trail('kill'))[attempt - 1]).toMatch(new RegExp(`^${attempt} (NODE_LOST|LEASE_LOST)$`));
      await startExecutor(victim); // a fresh process (new node id) to take the next kill's work
    }
    const { result } = await expectComplete('kill');
    const lost = expect.stringMatching(/^\d (NODE_LOST|LEASE_LOST)$/);
    expect(await trail('kill')).toEqual([lost, lost, '3 SUCCESS']);
    const after = resumes(readJournal(join(dir, 'kill.csv.journal')));
    expect(after.map((r) => r.attempt)).toEqual([2, 3]);
    for (const r of after) expect(r.rerun).toBeLessThanOrEqual(EVERY); // the pages after the last checkpoint
    expect(result.resumedAt % EVERY).toBe(0);
    const latency = after.map((r, i) => r.firstAt - kills[i]);
    process.stdout.write(`[e2e resumable-export] SIGKILL: pages re-run ${after.map((r) => r.rerun)}, `);
    process.stdout.write(`kill -> first page of the next attempt ${latency} ms (lease 2 s, offline after 3 s)\n`);
  }, 150_000);

  it('should hand back on SIGTERM with a checkpoint where it stopped, so the next attempt redoes nothing', async () => {
    await submit('term');
    const victim = await reach('term', 1, randomPage(10, 60));
    const termAt = Date.now();
    procs.get(victim)?.signal('SIGTERM');
    await reach('term', 2, 0);
    const { counts } = await expectComplete('term');
    expect(await trail('term')).toEqual(['1 HANDED_BACK', '2 SUCCESS']);
    const [resumed] = resumes(readJournal(join(dir, 'term.csv.journal')));
    expect(resumed.rerun).toBe(0);
    expect(Math.max(...counts)).toBe(1);
    process.stdout.write(
      `[e2e resumable-export] SIGTERM -> next attempt's first page ${resumed.firstAt - termAt} ms\n`,
    );
  }, 150_000);
});
