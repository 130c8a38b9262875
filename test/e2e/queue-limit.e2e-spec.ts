import { Injectable, Module } from '@nestjs/common';
import { JobContext, JobHandler, JobHandlerImpl } from '../../src/modules/execution/index.js';
import { executorsBeat, signedClient, startNode, type TestNode, waitFor } from '../utils/test-node.js';
import type { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { createJob } from '../utils/jobs.js';
import { sleep } from '../utils/async.js';
import { appClient, SHAPES } from '../utils/tenancy.js';
import { Scope } from '../../src/modules/metadata/index.js';

/** Every start of a `ql.sleep` run: its job code and instance, and when (ms). */
const starts: Array<{ code: string; instanceId: string; at: number }> = [];

/** `ql.sleep`: runs `params.ms` (a slow run of a job that fires faster than it runs), or until aborted. */
@Injectable()
@JobHandler('ql.sleep')
class SleepHandler implements JobHandlerImpl {
  async execute(ctx: JobContext): Promise<unknown> {
    starts.push({ code: ctx.jobCode as string, instanceId: ctx.instanceId, at: Date.now() });
    const ms = Number((ctx.params as { ms?: number }).ms ?? 2500);
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      ctx.signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
    });
    return { slept: ms };
  }
}

@Module({ providers: [SleepHandler] })
class SleepModule {}

interface Row {
  id: string;
  fire_time: number;
  status: string;
  error: string | null;
  started_at: number | null;
}

/**
 * A bounded QUEUE and pause (docs/trigger.md "Overlap"): a job firing every second whose runs take 2.5 s keeps at
 * most queueLimit fires WAITING, the rest recorded CANCELLED (OVERLAP_QUEUE_FULL); a paused job starts none of its
 * queued fires; its resume hands those late past MISFIRE_THRESHOLD_MS (5 s) to the misfire policy. On both release
 * paths: the MySQL promotion of a standalone node and the cluster's (Redis semaphores, executor hand-off).
 */
describe.each(SHAPES)('QUEUE limit and pause (%s)', (shape, env) => {
  let node: TestNode;
  let client: TickwheelClient;
  beforeAll(async () => {
    node = await startNode(env({ NODE_OFFLINE_AFTER_MS: '15000' }), { imports: [SleepModule] });
    client = await signedClient(node);
    if (shape === 'cluster') await executorsBeat(node, 1);
  }, 60_000);
  afterAll(async () => {
    await node?.close();
  });

  const rows = async (jobId: string): Promise<Row[]> =>
    (
      (await node.ds.query(
        'SELECT id, fire_time, status, error, started_at FROM job_instance WHERE job_id = ? ORDER BY fire_time',
        [jobId],
      )) as Array<Record<string, unknown>>
    ).map((r) => ({
      id: String(r.id),
      fire_time: Number(r.fire_time),
      status: String(r.status),
      error: (r.error as string | null) ?? null,
      started_at: r.started_at === null ? null : Number(r.started_at),
    }));

  /** A QUEUE job firing every second whose runs take 2.5 s. */
  const slowQueue = (code: string, extra: Record<string, unknown>) =>
    createJob(client, {
      code,
      handler: 'ql.sleep',
      triggerType: 'FIXED_RATE',
      triggerExpr: '1000',
      overlapPolicy: 'QUEUE',
      timeoutMs: 60_000,
      params: { ms: 2500 },
      ...extra,
    });

  it('never keeps more than queueLimit fires WAITING; the overflow is CANCELLED with its reason', async () => {
    const code = `qlim-${shape.slice(0, 2)}-${Date.now() % 100000}`;
    const job = await slowQueue(code, { queueLimit: 2 });
    expect(job.queueLimit).toBe(2);
    let peak = 0;
    await waitFor(
      'three fires skipped by the full queue',
      async () => {
        const rs = await rows(job.id);
        peak = Math.max(peak, rs.filter((r) => r.status === 'WAITING').length);
        return rs.filter((r) => (r.error ?? '').startsWith('OVERLAP_QUEUE_FULL')).length >= 3;
      },
      60_000,
      50,
    );
    await client.request('POST', `/api/jobs/${code}/pause`);
    const rs = await rows(job.id);
    expect(peak).toBeLessThanOrEqual(2);
    expect(rs.filter((r) => r.status === 'WAITING').length).toBeLessThanOrEqual(2);
    const full = rs.filter((r) => (r.error ?? '').startsWith('OVERLAP_QUEUE_FULL'));
    for (const r of full) {
      expect(r.status).toBe('CANCELLED');
      expect(r.error).toBe('OVERLAP_QUEUE_FULL: 2 fires already queued (queueLimit 2); not run');
      expect(r.started_at).toBeNull();
    }
    const runs = starts.filter((s) => s.code === code).map((s) => s.instanceId);
    expect(runs.filter((id) => full.some((r) => r.id === id))).toEqual([]);
  }, 90_000);

  it('a paused job starts none of its queued fires; the resume applies each misfire policy to them', async () => {
    const tag = `${shape.slice(0, 2)}-${Date.now() % 100000}`;
    const policies = ['SKIP', 'FIRE_ONCE_NOW', 'FIRE_ALL'] as const;
    const jobs = await Promise.all(
      policies.map((p, i) => slowQueue(`qp${i}-${tag}`, { queueLimit: 3, misfirePolicy: p })),
    );
    await waitFor(
      'each job has a run and two fires queued',
      async () => (await Promise.all(jobs.map((j) => rows(j.id)))).every((rs) => waitingOf(rs).length >= 2),
      60_000,
      50,
    );
    for (const j of jobs) expect((await client.request('POST', `/api/jobs/${j.code}/pause`)).status).toBe(200);
    const paused = await Promise.all(jobs.map(async (j) => waitingOf(await rows(j.id))));

    // Without the rule a queued fire starts each time a 2.5 s run ends: at least two in this window.
    await sleep(6000);
    for (const [i, j] of jobs.entries()) {
      const now = await rows(j.id);
      for (const q of paused[i]) expect(now.find((r) => r.id === q.id)?.status).toBe('WAITING');
      expect(starts.filter((s) => paused[i].some((q) => q.id === s.instanceId))).toEqual([]);
    }

    // Each queued fire is now more than MISFIRE_THRESHOLD_MS (5 s) past its time.
    for (const j of jobs) expect((await client.request('POST', `/api/jobs/${j.code}/resume`)).status).toBe(200);
    const [skip, once, all] = await Promise.all(jobs.map((j) => rows(j.id)));
    const statusOf = (rs: Row[], id: string) => rs.find((r) => r.id === id) as Row;

    for (const q of paused[0]) {
      expect(statusOf(skip, q.id)).toMatchObject({ status: 'CANCELLED', started_at: null });
      expect(statusOf(skip, q.id).error).toMatch(/^MISFIRE_SKIP: queued while the job was paused.*misfire policy SKIP/);
    }
    const latest = paused[1].at(-1) as Row;
    for (const q of paused[1].slice(0, -1)) {
      expect(statusOf(once, q.id).status).toBe('CANCELLED');
      expect(statusOf(once, q.id).error).toMatch(/FIRE_ONCE_NOW runs one fire for the missed ones/);
    }
    expect(statusOf(once, latest.id).status).not.toBe('CANCELLED');
    for (const q of paused[2]) expect(statusOf(all, q.id).status).not.toBe('CANCELLED');

    await waitFor(
      'the kept queued fires run after the resume',
      async () => {
        const ran = new Set(starts.map((s) => s.instanceId));
        return ran.has(latest.id) && paused[2].every((q) => ran.has(q.id));
      },
      60_000,
      100,
    );
    const order = starts.filter((s) => s.code === jobs[2].code).map((s) => s.instanceId);
    const queued = paused[2].map((q) => order.indexOf(q.id));
    expect(queued).toEqual([...queued].sort((a, b) => a - b));
    for (const j of jobs) await client.request('POST', `/api/jobs/${j.code}/pause`);
  }, 150_000);

  if (shape === 'standalone')
    it("a disabled client's QUEUE job starts none of its queued fires; the enable applies the misfire policy", async () => {
      const admin = await appClient(node, 'ql-admin', [Scope.ADMIN]);
      const app = await appClient(node, 'ql-app');
      const created = await app.request<{ id: string }>('POST', '/api/jobs', {
        code: 'queued-app-job',
        handler: 'ql.sleep',
        triggerType: 'FIXED_RATE',
        triggerExpr: '1000',
        overlapPolicy: 'QUEUE',
        queueLimit: 3,
        misfirePolicy: 'SKIP',
        timeoutMs: 60_000,
        params: { ms: 2500 },
      });
      expect(created.status).toBe(201);
      const jobId = created.body.id;
      await waitFor('two fires queued', async () => waitingOf(await rows(jobId)).length >= 2, 60_000, 50);
      const setEnabled = async (enabled: boolean) =>
        expect((await admin.request('PATCH', `/api/clients/${app.appId}`, { enabled })).status).toBe(200);
      await setEnabled(false);
      const queued = waitingOf(await rows(jobId));
      await sleep(6000);
      const held = await rows(jobId);
      for (const q of queued) expect(held.find((r) => r.id === q.id)?.status).toBe('WAITING');
      expect(starts.filter((s) => queued.some((q) => q.id === s.instanceId))).toEqual([]);
      await setEnabled(true);
      const after = await rows(jobId);
      for (const q of queued) {
        const r = after.find((x) => x.id === q.id) as Row;
        expect(r).toMatchObject({ status: 'CANCELLED', started_at: null });
        expect(r.error).toMatch(/^MISFIRE_SKIP: queued while the job was paused.*misfire policy SKIP/);
      }
      await setEnabled(false);
    }, 90_000);

  if (shape === 'standalone')
    it('queueLimit is stored with any policy and used only under QUEUE; PATCH changes it', async () => {
      const code = `qa-${Date.now() % 100000}`;
      const body = { handler: 'ql.sleep', params: { ms: 2000 }, timeoutMs: 60_000 };
      const job = await createJob(client, { ...body, code, overlapPolicy: 'ALLOW', queueLimit: 1 });
      expect(job.queueLimit).toBe(1);
      const fresh = await createJob(client, { ...body, code: `${code}-d`, overlapPolicy: 'QUEUE' });
      expect(fresh.queueLimit).toBe(10);
      const patched = await client.request<{ queueLimit: number }>('PATCH', `/api/jobs/${code}-d`, { queueLimit: 1 });
      expect(patched.status).toBe(200);
      expect(patched.body.queueLimit).toBe(1);
      const bad = await client.request<{ field: string }>('PATCH', `/api/jobs/${code}-d`, { queueLimit: 0 });
      expect(bad.status).toBe(400);
      expect(bad.body.field).toBe('queueLimit');
      for (let i = 0; i < 3; i++) {
        expect((await client.request('POST', `/api/jobs/${code}/trigger`, {})).status).toBe(202);
        await sleep(5);
      }
      expect((await rows(job.id)).map((r) => r.status)).not.toContain('CANCELLED');
    });
});

function waitingOf(rs: Row[]): Row[] {
  return rs.filter((r) => r.status === 'WAITING');
}
