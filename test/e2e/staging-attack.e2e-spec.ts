import { randomUUID } from 'node:crypto';
import { Injectable, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JobContext, JobHandler, JobHandlerImpl } from '../../src/modules/execution/index.js';
import { dataSourceOptions } from '../../src/modules/metadata/index.js';
import {
  clusterEnv,
  MYSQL_URL,
  signedClient,
  startNode,
  TestNode,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import { createJob } from '../utils/jobs.js';

/**
 * Attacks on staged fires (docs/trigger.md delta, README "Staged fires"). Each test below was a bug that broke
 * one of the promises of staging (kept as `it.failing` until fixed; the comments say what it was).
 *
 * What was tried and held is listed in the report that came with this file (pause/edit/delete racing
 * an open firing page on MySQL, executor SIGKILL before the fire time, leader SIGKILL right after
 * staging, a namespace-wide Redis flush, TRIGGER_STAGE_LEAD_MS=0, standalone restart, pause/resume
 * cycles, schedule flip-flops, delete and re-create, thousands of jobs a second under edits).
 */

/** `attack.sleep`: sleeps `params.ms`, and stops as soon as its signal aborts (cancel, shutdown). */
@Injectable()
@JobHandler('attack.sleep')
class SleepHandler implements JobHandlerImpl {
  execute(ctx: JobContext): Promise<{ slept: number }> {
    const ms = Number((ctx.params as { ms?: number } | null)?.ms ?? 0);
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => resolve({ slept: ms }), ms);
      ctx.signal.addEventListener(
        'abort',
        () => {
          clearTimeout(t);
          reject(ctx.signal.reason as Error);
        },
        { once: true },
      );
    });
  }
}

@Module({ providers: [SleepHandler] })
class SleepModule {}

interface Row {
  id: string;
  fire_time: number;
  status: string;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  error: string | null;
}

async function rowsOf(ds: DataSource, jobId: string): Promise<Row[]> {
  const rows = (await ds.query(
    'SELECT id, fire_time, status, created_at, started_at, finished_at, error FROM job_instance WHERE job_id = ? ORDER BY fire_time',
    [jobId],
  )) as Row[];
  const num = (v: unknown) => (v === null ? null : Number(v));
  return rows.map((r) => ({
    ...r,
    fire_time: Number(r.fire_time),
    created_at: Number(r.created_at),
    started_at: num(r.started_at),
    finished_at: num(r.finished_at),
  }));
}

/** Inserts `n` enabled ALLOW jobs of `handler`, each due once at `fireTime` (FIXED_RATE one hour). */
async function insertJobsAt(
  ds: DataSource,
  namespace: string,
  n: number,
  fireTime: number,
  handler: string,
): Promise<void> {
  const now = Date.now();
  for (let i = 0; i < n; i += 1000) {
    const tuples: string[] = [];
    const values: unknown[] = [];
    for (let j = i; j < Math.min(n, i + 1000); j++) {
      tuples.push(
        `(?, ?, ?, ?, 'FIXED_RATE', '3600000', 'UTC', 'ROUND_ROBIN', 1, 'FIRE_ONCE_NOW', 'ALLOW', 0, 60000, 0, 1000, 'FIXED', 1, 'OK', ?, 1, ?, ?)`,
      );
      values.push(randomUUID(), namespace, `same-instant-${j}`, handler, fireTime, now, now);
    }
    await ds.query(
      `INSERT INTO job_definition (id, namespace, code, handler, trigger_type, trigger_expr, time_zone, routing_strategy, shard_total, misfire_policy,
         overlap_policy, max_concurrency, timeout_ms, retry_max, retry_backoff_ms, retry_backoff_kind, enabled, schedule_state, next_fire_time, version, created_at, updated_at)
       VALUES ${tuples.join(', ')}`,
      values,
    );
  }
}

describe('staged fires under attack (cluster shape)', () => {
  let ds: DataSource;
  const nodes: TestNode[] = [];
  const namespaces: string[] = [];

  beforeAll(async () => {
    ds = await new DataSource(dataSourceOptions({ database: { type: 'mysql', url: MYSQL_URL } })).initialize();
  });
  afterEach(async () => {
    for (const n of nodes.splice(0).reverse()) await n.close();
    for (const ns of namespaces.splice(0)) {
      await deleteNamespaceRows(ds, ns, { definitions: true });
    }
  });
  afterAll(async () => {
    await ds?.destroy();
  });

  // WAS A BUG, fixed by keyset paging on (fire_time, id) (lost fires, whole namespace): LeaderWheel.adoptStaged pages findStaged by fire time
  // only (`after = last.fireTime - 1`, LOAD_PAGE 5000). When 5000 or more staged rows share one fire time,
  // every page is those same rows and the loop never ends; adoption and load() share the 'load' guard, so
  // the new leader never loads its wheel again: no job of the namespace fires while it leads. (With a
  // live executor the loop ends at the first claim after that instant, having pushed the same ids several
  // times; with none for those rows, or executors saturated, it never ends.)
  it('should keep firing other jobs after taking over 5000 fires staged for one instant', async () => {
    const ns = uniqueNamespace('e2e-adopt');
    namespaces.push(ns);
    // Staged 18 s ahead of an instant 21 s away: inserting and staging 5000 rows has ~19 s before the takeover
    // below must happen (with 8 s ahead of 11 s it had 9 s, which a loaded machine could spend).
    const env = {
      ROLES: 'api,scheduler',
      TRIGGER_STAGE_LEAD_MS: '18000',
      TRIGGER_HORIZON_MS: '30000',
      RECONCILE_INTERVAL_MS: '600000',
      DUE_ALERT_AFTER_MS: '600000',
      LOG_LEVEL: 'error',
    };
    const first = await startNode(clusterEnv(ns, env));
    nodes.push(first);
    const now = Date.now();
    const instant = now - (now % 1000) + 21_000;
    await insertJobsAt(ds, ns, 5000, instant, 'nobody.serves.this'); // no executor: the rows stay PENDING, as while a handler's pool is down
    await waitFor(
      'the 5000 fires staged',
      async () =>
        Number(
          (
            await ds.query('SELECT COUNT(*) AS c FROM job_instance WHERE namespace = ? AND fire_time = ?', [
              ns,
              instant,
            ])
          )[0].c,
        ) === 5000,
      30_000,
      100,
    );
    expect(Date.now()).toBeLessThan(instant - 2000); // the takeover below happens while they are still staged
    await nodes.pop()?.close(); // graceful: releases the leader lock, the next scheduler takes over at once

    const second = await startNode(clusterEnv(ns, env));
    nodes.push(second);
    const tookOver = Date.now();
    const client = await signedClient(second);
    const canary = (
      await createJob(client, { code: 'canary', handler: 'nobody.serves.this', triggerExpr: '* * * * * *' })
    ).id;
    await waitFor('the canary staged twice', async () => (await rowsOf(ds, canary)).length >= 2, 30_000, 100).catch(
      () => undefined,
    );
    const canaryFires = (await rowsOf(ds, canary)).map((x) => x.fire_time - tookOver);
    expect({ canaryFiresAfterTakeover: canaryFires.length > 0 ? canaryFires : 'none' }).toEqual({
      canaryFiresAfterTakeover: expect.any(Array),
    });
    expect(canaryFires.length).toBeGreaterThanOrEqual(2);
  }, 120_000);

  // WAS A BUG, fixed by re-deciding staging on the locked row in firePage and keying held entries on
  // (time, staging) (early start, early REPLACE, fire of a paused job): LeaderWheel.hold() skips a ref whose
  // (job, next_fire_time) is already on the wheel and ignores `stage`. A PATCH that changes only
  // overlapPolicy from ALLOW to QUEUE/REPLACE, made while no fire is staged, keeps next_fire_time, so the
  // wheel keeps the old entry at next - TRIGGER_STAGE_LEAD_MS; TriggerService.firePage then writes the
  // fire lead ms early under the *new* policy: REPLACE cancels the running fire 2.5 s before the fire that
  // replaces it; QUEUE writes a WAITING row that deleteStaged (PENDING/DISPATCHED only) does not remove
  // on pause, and that admission promotes (due_at = now) to start as soon as its predecessor ends, before
  // its fire time. firePage never checks that a non-ALLOW job is being fired ahead of its time.
  it('should write a fire of a job edited from ALLOW to QUEUE/REPLACE at its fire time, not ahead', async () => {
    const ns = uniqueNamespace('e2e-policy');
    namespaces.push(ns);
    const node = await startNode(clusterEnv(ns, { TRIGGER_STAGE_LEAD_MS: '2500', LOG_LEVEL: 'error' }), {
      imports: [SleepModule],
    });
    nodes.push(node);
    const client = await signedClient(node);
    const body = { handler: 'attack.sleep', triggerExpr: '*/5 * * * * *', timeoutMs: 60_000, params: { ms: 30_000 } };
    const q = (await createJob(client, { ...body, code: 'to-queue' })).id;
    const r = (await createJob(client, { ...body, code: 'to-replace' })).id;

    // Edit both jobs while their fire T0 runs and before T1 = T0 + 5 s is due to be staged (T1 - 2.5 s). A slow
    // machine misses that window now and then: up to 8 cycles are tried (4 could all be missed under load).
    let t0 = 0;
    for (let attempt = 0; attempt < 8 && t0 === 0; attempt++) {
      await waitFor(
        'both jobs running a fire that has just come',
        async () => {
          const running = (await rowsOf(ds, q)).filter((x) => x.status === 'RUNNING').at(-1);
          if (!running || Date.now() > running.fire_time + 1500) return false;
          if (!(await rowsOf(ds, r)).some((x) => x.fire_time === running.fire_time && x.status === 'RUNNING'))
            return false;
          t0 = running.fire_time;
          return true;
        },
        30_000,
        20,
      );
      expect((await client.request('PATCH', `/api/jobs/${q}`, { overlapPolicy: 'QUEUE' })).status).toBe(200);
      expect((await client.request('PATCH', `/api/jobs/${r}`, { overlapPolicy: 'REPLACE' })).status).toBe(200);
      if ([...(await rowsOf(ds, q)), ...(await rowsOf(ds, r))].some((x) => x.fire_time > t0)) {
        t0 = 0; // the edits came after T1 was staged (slow machine): back to ALLOW, next cycle
        await client.request('PATCH', `/api/jobs/${q}`, { overlapPolicy: 'ALLOW' });
        await client.request('PATCH', `/api/jobs/${r}`, { overlapPolicy: 'ALLOW' });
      }
    }
    expect(t0).toBeGreaterThan(0);
    const t1 = t0 + 5000;

    // As soon as Q's T1 row exists, pause Q, then cancel what still runs of Q (its turn goes to T1).
    await waitFor(
      'T1 written for both jobs',
      async () =>
        (await rowsOf(ds, q)).some((x) => x.fire_time === t1) && (await rowsOf(ds, r)).some((x) => x.fire_time === t1),
      30_000,
      20,
    );
    expect((await client.request('POST', `/api/jobs/${q}/pause`)).status).toBe(200);
    const pausedAt = Date.now();
    for (const x of (await rowsOf(ds, q)).filter(
      (y) => y.fire_time < t1 && ['PENDING', 'DISPATCHED', 'RUNNING'].includes(y.status),
    )) {
      expect((await client.request('POST', `/api/jobs/${q}/instances/${x.id}/cancel`)).status).toBe(200);
    }
    // A paused job's queued fire waits for the resume (docs/trigger.md "Overlap"): T1 is not late, so it stays.
    const resumedAt = Date.now(); // fires written from here on are the resumed schedule's
    expect((await client.request('POST', `/api/jobs/${q}/resume`)).status).toBe(200);
    await waitFor(
      "Q's T1 started",
      async () => (await rowsOf(ds, q)).some((x) => x.fire_time === t1 && x.started_at !== null),
      30_000,
      20,
    );

    const qRows = await rowsOf(ds, q);
    const rRows = await rowsOf(ds, r);
    const violations: string[] = [];
    for (const x of [...qRows, ...rRows].filter((y) => y.fire_time === t1 && y.created_at < t1)) {
      violations.push(`fire ${x.fire_time} of a non-ALLOW job written ${t1 - x.created_at} ms before its time`);
    }
    for (const x of rRows.filter(
      (y) => (y.error ?? '').startsWith('OVERLAP_REPLACE') && (y.finished_at as number) < t1,
    )) {
      violations.push(
        `REPLACE cancelled the fire of ${x.fire_time} ${t1 - (x.finished_at as number)} ms before the fire that replaces it`,
      );
    }
    for (const x of qRows.filter((y) => y.fire_time > pausedAt && y.created_at < resumedAt)) {
      violations.push(
        `paused job kept fire ${x.fire_time} (${x.status}, ${x.fire_time - pausedAt} ms after the pause returned)`,
      );
    }
    for (const x of qRows.filter((y) => y.started_at !== null && (y.started_at as number) < y.fire_time)) {
      violations.push(`fire ${x.fire_time} started ${x.fire_time - (x.started_at as number)} ms before its time`);
    }
    for (const id of [q, r]) {
      // let the node close without waiting out the sleeps
      await client.request('POST', `/api/jobs/${id}/pause`);
      for (const x of (await rowsOf(ds, id)).filter((y) =>
        ['PENDING', 'WAITING', 'DISPATCHED', 'RUNNING'].includes(y.status),
      )) {
        await client.request('POST', `/api/jobs/${id}/instances/${x.id}/cancel`);
      }
    }
    expect(violations).toEqual([]);
  }, 180_000);
});
