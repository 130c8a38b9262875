import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { HttpReceiver, startReceiver } from '../utils/http-receiver.js';
import { signedClient, standaloneEnv, startNode, TestNode, waitFor } from '../utils/test-node.js';

interface Row {
  id: string;
  fire_time: string | number;
  status: string;
  error: string | null;
  started_at: string | number | null;
  finished_at: string | number | null;
}

/** Overlap policies (DESIGN §5) and cancel (DESIGN §4, §7) with a slow receiver: each run takes ~2.5 s, fires come every second. */
describe('overlap policies and cancel (standalone)', () => {
  let node: TestNode;
  let receiver: HttpReceiver;
  let client: TickwheelClient;

  beforeAll(async () => {
    receiver = await startReceiver({ delayMs: 2500 });
    node = await startNode(standaloneEnv({ HEARTBEAT_INTERVAL_MS: '300', NODE_OFFLINE_AFTER_MS: '3000' }));
    client = await signedClient(node);
  });
  afterAll(async () => {
    await node?.close();
    await receiver?.close();
  });

  const rows = async (jobId: string) =>
    (await node.ds.query('SELECT id, fire_time, status, error, started_at, finished_at FROM job_instance WHERE job_id = ? ORDER BY fire_time', [jobId])) as Row[];

  async function runJob(code: string, overlapPolicy: string, seconds: number): Promise<Row[]> {
    const res = await client.request<{ id: string }>('POST', '/api/jobs', {
      code, handler: 'http', triggerType: 'CRON', triggerExpr: '* * * * * *', overlapPolicy, params: { url: `${receiver.url}/${code}`, timeoutMs: 10_000 },
    });
    expect(res.status).toBe(201);
    await new Promise((r) => setTimeout(r, seconds * 1000));
    await client.request('POST', `/api/jobs/${code}/pause`);
    await waitFor(`${code} settled`, async () => (await rows(res.body.id)).every((r) => ['SUCCESS', 'CANCELLED', 'FAILED'].includes(r.status)), 20_000, 200);
    return rows(res.body.id);
  }

  /** Largest number of runs that overlapped in time. */
  const maxConcurrent = (rs: Row[]) => {
    const ran = rs.filter((r) => r.started_at !== null && r.finished_at !== null).map((r) => [Number(r.started_at), Number(r.finished_at)]);
    return Math.max(0, ...ran.map(([s]) => ran.filter(([s2, f2]) => s2 <= s && s < f2).length));
  };

  it('should run fires side by side under ALLOW', async () => {
    const rs = await runJob('allow', 'ALLOW', 4);
    expect(rs.every((r) => r.status === 'SUCCESS')).toBe(true);
    expect(maxConcurrent(rs)).toBeGreaterThan(1);
  }, 30_000);

  it('should record fires during a run as CANCELLED (OVERLAP_SKIP) under SKIP, never two runs at once', async () => {
    const rs = await runJob('skip', 'SKIP', 4);
    const skipped = rs.filter((r) => r.status === 'CANCELLED');
    expect(skipped.length).toBeGreaterThan(0);
    for (const r of skipped) expect(r.error).toMatch(/OVERLAP_SKIP/);
    expect(rs.filter((r) => r.status === 'SUCCESS').length).toBeGreaterThan(0);
    expect(maxConcurrent(rs)).toBe(1);
  }, 30_000);

  it('should hold fires WAITING and run them one at a time, in fire order, under QUEUE', async () => {
    const rs = await runJob('queue', 'QUEUE', 3);
    expect(rs.length).toBeGreaterThanOrEqual(3);
    expect(rs.every((r) => r.status === 'SUCCESS')).toBe(true);
    expect(maxConcurrent(rs)).toBe(1);
    const starts = rs.map((r) => Number(r.started_at));
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
  }, 40_000);

  it('should cancel the unfinished fire and run the new one under REPLACE', async () => {
    const rs = await runJob('replace', 'REPLACE', 4);
    const cancelled = rs.filter((r) => r.status === 'CANCELLED');
    expect(cancelled.length).toBeGreaterThan(0);
    for (const r of cancelled) expect(r.error).toMatch(/OVERLAP_REPLACE/);
    expect(rs.at(-1)?.status).toBe('SUCCESS');
  }, 30_000);

  it('should cancel a delayed task before it runs, and a running one within a heartbeat', async () => {
    const later = await client.submitTask({ requestId: 'cancel-later', handler: 'http', params: { url: `${receiver.url}/later` }, delayMs: 60_000 });
    expect(later.status).toBe(202);
    const c1 = await client.request<{ status: string }>('POST', '/api/tasks/cancel-later/cancel');
    expect(c1.status).toBe(200);
    expect(c1.body.status).toBe('CANCELLED');
    const slow = await client.submitTask({ requestId: 'cancel-running', handler: 'http', params: { url: `${receiver.url}/slow`, timeoutMs: 10_000 } });
    expect(slow.status).toBe(202);
    await waitFor('running', async () => (await client.getTask('cancel-running')).body.status === 'RUNNING', 5000, 50);
    const c2 = await client.request<{ status: string; instanceId: string }>('POST', '/api/tasks/cancel-running/cancel');
    expect(c2.body.status).toBe('CANCELLED');
    await waitFor('attempt closed as CANCELLED', async () => {
      const a: Array<{ status: string }> = await node.ds.query('SELECT status FROM job_attempt WHERE instance_id = ?', [c2.body.instanceId]);
      return a[0]?.status === 'CANCELLED';
    }, 5000, 100);
    await new Promise((r) => setTimeout(r, 3000)); // the receiver answers meanwhile: the late result must not land
    const after = (await client.getTask('cancel-running')).body as { status: string; result: unknown };
    expect(after.status).toBe('CANCELLED');
    expect(after.result).toBeNull();
    const again = await client.request<{ status: string }>('POST', '/api/tasks/cancel-running/cancel');
    expect(again.body.status).toBe('CANCELLED');
    expect((await client.request('POST', '/api/tasks/nope/cancel')).status).toBe(404);
  }, 30_000);
});
