import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { COORDINATION, type CoordinationPort } from '../../src/modules/coordination/index.js';
import { EffectLog, startEffectLog } from '../utils/effect-log.js';
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
import { sleep } from '../utils/async.js';

type Row = Record<string, unknown>;

/**
 * Graceful SIGTERM of an executor process (docs/execution.md "Graceful shutdown"): it stops pulling; the ids queued for
 * it go to another node at once; running work gets EXECUTOR_SHUTDOWN_GRACE_MS (12 s here) to finish — longer
 * than NODE_OFFLINE_AFTER_MS (3 s), so the node must keep beating while it drains or its leases would be
 * revoked and the work run twice; what still runs after the grace is handed back and runs elsewhere.
 * (The grace was 5 s, with /medium released 1.5 s before its end: too little for a loaded machine to record it.)
 */
describe('graceful shutdown of an executor (real processes)', () => {
  const ns = uniqueNamespace('e2e-drain');
  const OFFLINE_MS = 3000;
  const GRACE_MS = 12_000;
  const executorEnv = (name: string, extra: Record<string, string> = {}) =>
    clusterEnv(ns, {
      ROLES: 'executor',
      PORT: '0',
      NODE_NAME: name,
      HEARTBEAT_INTERVAL_MS: '500',
      NODE_OFFLINE_AFTER_MS: String(OFFLINE_MS),
      ...extra,
    });
  let api: TestNode;
  let client: TickwheelClient;
  let effects: EffectLog;
  const procs: ProductProcess[] = [];

  const rows = async (): Promise<Map<string, Row>> =>
    new Map(
      (
        (await api.ds.query(
          'SELECT request_id, status, attempt, max_attempts, node_id, started_at FROM job_instance WHERE namespace = ?',
          [ns],
        )) as Row[]
      ).map((r) => [String(r.request_id), r]),
    );
  const trail = async (requestId: string) =>
    (
      (await api.ds.query(
        `SELECT a.attempt, a.status, a.node_id FROM job_attempt a JOIN job_instance i ON i.id = a.instance_id
      WHERE i.namespace = ? AND i.request_id = ? ORDER BY a.attempt`,
        [ns, requestId],
      )) as Row[]
    ).map((a) => `${a.attempt} ${a.status} ${String(a.node_id).split('-')[0]}`);
  const live = () => liveExecutors(api);
  const submit = async (requestId: string, path: string) =>
    expect(
      (
        await client.submitTask({
          requestId,
          handler: 'http',
          params: { url: `${effects.url}${path}` },
          maxAttempts: 1,
        })
      ).status,
    ).toBe(202);

  beforeAll(async () => {
    // /medium answers when the test releases it (inside the grace, past the offline threshold); /long's first
    // attempt never answers (cut off by the grace); everything else answers in 100 ms.
    effects = await startEffectLog((path, attempt) =>
      (path === '/long' && attempt === 1) || path === '/medium' ? { hold: true } : { delayMs: 100 },
    );
    // The reconciler's pass is 30 s away: the hand-back must not wait for it.
    api = await startNode(
      clusterEnv(ns, {
        ROLES: 'api,scheduler',
        NODE_OFFLINE_AFTER_MS: String(OFFLINE_MS),
        RECONCILE_INTERVAL_MS: '30000',
      }),
    );
    client = await signedClient(api);
  }, 60_000);

  afterAll(async () => {
    for (const p of procs) await p.stop(3000);
    await api?.close();
    await effects?.close();
  });

  it('should stop pulling, finish running work within the grace, and hand queued and cut-off work to another node', async () => {
    // One app's two tasks run side by side on dx's two slots: no share held back for other apps (EXECUTOR_APP_SHARE).
    const draining = startProcess(
      executorEnv('dx', {
        EXECUTOR_CONCURRENCY: '2',
        EXECUTOR_APP_SHARE: '1',
        EXECUTOR_SHUTDOWN_GRACE_MS: String(GRACE_MS),
      }),
    );
    procs.push(draining);
    await waitFor('dx to beat', async () => (await live()).includes('dx'), 30_000);
    await submit('medium', '/medium');
    await submit('long', '/long');
    await waitFor(
      'both running on dx',
      async () => effects.of('medium').length === 1 && effects.of('long').length === 1,
      30_000,
      50,
    );
    const queued = ['q1', 'q2', 'q3', 'q4'];
    for (const id of queued) await submit(id, '/q'); // dx's two slots are busy: these wait in its ready list
    await waitFor(
      'the queued tasks routed to dx',
      async () => {
        const r = await rows();
        return queued.every((id) => r.get(id)?.status === 'DISPATCHED' && String(r.get(id)?.node_id).startsWith('dx-'));
      },
      30_000,
      50,
    );
    procs.push(startProcess(executorEnv('dy')));
    await waitFor('dy to beat', async () => (await live()).includes('dy'), 30_000);
    expect((await rows()).get('q1')).toMatchObject({ status: 'DISPATCHED' });

    const termAt = Date.now();
    draining.signal('SIGTERM');
    // Past the offline threshold (and well inside the grace) dx must still count as live; then /medium ends.
    const pastThreshold = (async () => {
      await sleep(Math.max(0, termAt + OFFLINE_MS + 1500 - Date.now())); // until past the offline threshold
      const seen = await live();
      effects.release('/medium');
      return seen;
    })();
    // Queued ids go to dy at once, long before the grace is over.
    await waitFor(
      'the queued tasks to finish on dy',
      async () => {
        const r = await rows();
        return queued.every((id) => r.get(id)?.status === 'SUCCESS');
      },
      GRACE_MS - 2000,
      50,
    );
    const queuedDoneMs = Date.now() - termAt;
    expect(await live()).toContain('dx'); // still beating while it drains (no handlers advertised)
    expect(await pastThreshold).toContain('dx'); // ... also past NODE_OFFLINE_AFTER_MS after the SIGTERM
    const exit = await draining.exited;
    const exitMs = Date.now() - termAt;
    await waitFor('long to finish on dy', async () => (await rows()).get('long')?.status === 'SUCCESS', 30_000);
    process.stdout.write(
      `[e2e graceful-shutdown] queued work done elsewhere ${queuedDoneMs} ms after SIGTERM; process exited after ${exitMs} ms (grace ${GRACE_MS} ms)\n`,
    );

    // Nest closes the app and re-raises the signal: a clean exit by SIGTERM (a SIGKILL would read SIGKILL).
    expect(exit === 0 || draining.child.signalCode === 'SIGTERM').toBe(true);
    expect(exitMs).toBeGreaterThanOrEqual(GRACE_MS - 200); // waited the grace out for /long
    expect(exitMs).toBeLessThan(GRACE_MS + 8000); // and no longer than the hand-back and close need (busy machine: 8 s)
    const r = await rows();
    for (const id of queued) {
      expect(r.get(id)).toMatchObject({ status: 'SUCCESS', attempt: 1 }); // never ran on dx: the same attempt
      expect(String(r.get(id)?.node_id)).toMatch(/^dy-/);
      expect(await trail(id)).toEqual(['1 SUCCESS dy']);
    }
    // Finished within the grace on dx, though past the offline threshold: not revoked, run once.
    expect(r.get('medium')).toMatchObject({ status: 'SUCCESS', attempt: 1 });
    expect(await trail('medium')).toEqual(['1 SUCCESS dx']);
    // Cut off by the grace: handed back (without using up its only attempt) and run on dy.
    expect(r.get('long')).toMatchObject({ status: 'SUCCESS', attempt: 2, max_attempts: 2 }); // attempt 2 of 2, never "2 of 1"
    expect(await trail('long')).toEqual(['1 HANDED_BACK dx', '2 SUCCESS dy']);
    expect(effects.effects.filter((e) => e.path === '/q').length).toBe(queued.length);
    expect(effects.of('medium')).toHaveLength(1);
    expect(effects.of('long').map((e) => e.attempt)).toEqual([1, 2]);
    // It stopped pulling: nothing started on dx after the SIGTERM.
    const onDx: Row[] = await api.ds.query(
      `SELECT a.started_at FROM job_attempt a JOIN job_instance i ON i.id = a.instance_id WHERE i.namespace = ? AND a.node_id LIKE 'dx-%'`,
      [ns],
    );
    expect(onDx.every((a) => Number(a.started_at) < termAt)).toBe(true);
    // Deregistered on the way out: the registry itself (not NodeRegistryService's 250-ms view, which a dispatch may
    // have filled just before dx left) no longer holds it, and it recorded its stop, which it does only after that.
    const registered = (await api.app.get<CoordinationPort>(COORDINATION).liveNodes(0)).map(
      (n) => n.nodeId.split('-')[0],
    );
    expect(registered).not.toContain('dx');
    const [dx] = await api.ds.query(
      "SELECT stopped_at FROM executor_node WHERE node_id LIKE 'dx-%' ORDER BY started_at DESC LIMIT 1",
    );
    expect(dx.stopped_at).not.toBeNull();
  }, 150_000);
});
