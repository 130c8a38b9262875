import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import mysql from 'mysql2/promise';
import { startCallbackReceiver } from '../../bench/lib/callback-receiver.mjs';
import { ProductSlot } from '../../scripts/chaos/lib/cluster.mjs';
import { apiClient, cleanup } from '../../scripts/chaos/lib/product.mjs';
import { startReceiver, type SideEffect } from '../../scripts/chaos/lib/receiver.mjs';
import { log, sleep, waitFor } from '../../scripts/chaos/lib/run-util.mjs';
import { stopSchedules, noneLeft, unfinished } from '../../scripts/chaos/lib/quiesce.mjs';
import { judge } from '../../scripts/chaos/lib/verdict.mjs';
import { createJobs, type WorkloadOptions } from '../../scripts/chaos/lib/workload.mjs';
import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { MYSQL_URL } from './test-node.js';

/** A request that takes longer than this is a hang (the brief of issue 27: an answer, never a hang). */
export const HANG_MS = 10_000;

/** One answer of the API to a task submit. status 0: no answer (connection refused, or aborted at HANG_MS). */
export interface Answer {
  sentAt: number;
  ms: number;
  status: number;
  retryAfter: string | null;
}

/** The Redis side of a failover run: the product's Redis settings and how to fail over its master. */
export interface RedisUnderTest {
  env: Record<string, string>;
  /** Called with the run's namespace once the load runs, before the kill (e.g. to find the slot's master). */
  beforeKill?(namespace: string): Promise<void>;
  /** SIGKILLs the master that holds the namespace's keys. */
  killMaster(): void;
  /** True once a replica took over as master (polled after the kill). */
  promoted(): Promise<boolean>;
  /** A client of the new master (for the clean-up of the namespace's keys). */
  adminClient(): Redis;
}

/** What a failover run measured (ms from the kill) and the chaos verdict. */
export interface FailoverFigures {
  verdict: Awaited<ReturnType<typeof judge>>;
  promotedMs: number;
  firesResumeMs: number;
  dispatchResumeMs: number;
  apiResumeMs: number;
  /** Answers to submits sent from the kill until the first 2xx sent after it, by status ('0' = none). */
  meanwhile: Record<string, number>;
  /** Every answer after the kill. */
  after: Answer[];
  maxAnswerMs: number;
  submitted: number;
  unaccepted: number;
}

/** The chaos workload's options for `jobs` cron jobs (every 1..5 s); the tasks are this harness's own stream. */
function workload(jobs: number): WorkloadOptions {
  const between = (lo: number, hi: number) => lo + Math.random() * (hi - lo);
  return { jobs, tasks: 0, duration: 0, 'delayed-share': 0, 'fail-share': 0, rand: Math.random, between };
}

/** The end of the longest pause between `times` after `from - 2 s`, minus `from`: when the work came back. */
function resumeAfter(times: number[], from: number): number {
  const t = times.filter((x) => x >= from - 2000).sort((a, b) => a - b);
  let best = 0;
  let end = NaN;
  for (let i = 1; i < t.length; i++) if (t[i] - t[i - 1] > best) [best, end] = [t[i] - t[i - 1], t[i]];
  return end - from;
}

/** Sends one signed task submit, bounded by HANG_MS. */
async function submit(client: TickwheelClient, baseUrl: string, task: object): Promise<Answer> {
  const body = JSON.stringify(task);
  const headers = { ...client.sign('POST', '/api/tasks', body), 'content-type': 'application/json' };
  const sentAt = Date.now();
  try {
    const res = await fetch(`${baseUrl}/api/tasks`, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(HANG_MS),
    });
    await res.arrayBuffer();
    return { sentAt, ms: Date.now() - sentAt, status: res.status, retryAfter: res.headers.get('retry-after') };
  } catch {
    return { sentAt, ms: Date.now() - sentAt, status: 0, retryAfter: null };
  }
}

/**
 * Runs the chaos check's workload (3 cron jobs every 1-3 s, lib/workload.mjs, plus a task submit every 150 ms, each
 * with its requestId and sent again until accepted) against one api+scheduler and one executor process on `redis`;
 * SIGKILLs the master `killAfterMs` into the load and keeps loading `loadAfterMs` more; then stops the schedules,
 * waits for every instance to end and judges the run (scripts/chaos/lib/verdict.mjs). `dbUrl`: the shared MariaDB
 * unless a test brings its own.
 */
export async function runFailover(
  name: string,
  redis: RedisUnderTest,
  { killAfterMs = 8000, loadAfterMs = 18_000, dbUrl = MYSQL_URL } = {},
): Promise<FailoverFigures> {
  const namespace = `ha-${name}-${randomBytes(3).toString('hex')}`;
  const logDir = mkdtempSync(join(tmpdir(), `tw-${namespace}-`));
  const repo = process.cwd();
  const env = {
    DB_URL: dbUrl,
    TICKWHEEL_SECRET_KEY: 'cd'.repeat(32),
    TICKWHEEL_NAMESPACE: namespace,
    HEARTBEAT_INTERVAL_MS: '1000',
    NODE_OFFLINE_AFTER_MS: '6000',
    EGRESS_ALLOW: '*,127.0.0.1', // the receivers listen on loopback
    ...redis.env,
  };
  const db = mysql.createPool({ uri: dbUrl, connectionLimit: 2 });
  const receiver = await startReceiver({ workMs: () => 20 });
  const callbacks = await startCallbackReceiver({ verify: () => ({ ok: true }) });
  const sched = new ProductSlot({
    repo,
    logDir,
    name: 'sched',
    role: 'scheduler',
    env: { ...env, ROLES: 'api,scheduler' },
  });
  const exec = new ProductSlot({ repo, logDir, name: 'exec', role: 'executor', env: { ...env, ROLES: 'executor' } });
  let appId: string | null = null;
  let keepLogs = process.env.KEEP_FAULT_LOGS === '1';
  let admin: Redis | undefined;
  try {
    await Promise.all([sched.start(), exec.start()]);
    const app = await apiClient(env, repo);
    appId = app.appId;
    const baseUrl = `http://127.0.0.1:${sched.port}`;
    const tw = new TickwheelClient({ baseUrl, ...app });
    const jobs = await createJobs(() => tw, workload(3), { receiver, callbacks });

    const answers: Answer[] = [];
    const taskIds: string[] = [];
    const waiting: object[] = [];
    const inFlight = new Set<Promise<void>>();
    let stopSubmits = false;
    let giveUpAt = Infinity; // once stopped: a minute for the last refused ones
    // One submit every 100 ms, not waiting for the one before: the API is sampled all through the outage.
    const submits = (async () => {
      for (let i = 0; (!stopSubmits || waiting.length + inFlight.size > 0) && Date.now() < giveUpAt; i++) {
        if (!stopSubmits) {
          const requestId = `${namespace}-t${i}`;
          taskIds.push(requestId);
          waiting.push({ requestId, handler: 'http', params: { method: 'POST', url: `${receiver.url}/task` } });
        }
        const task = waiting.shift();
        if (task) {
          const sent = submit(tw, baseUrl, { ...task, maxAttempts: 20, retryBackoffMs: 100 }).then((answer) => {
            answers.push(answer);
            if (answer.status < 200 || answer.status >= 300) waiting.push(task);
            inFlight.delete(sent);
          });
          inFlight.add(sent);
        }
        await sleep(100);
      }
    })();
    await sleep(killAfterMs);
    await redis.beforeKill?.(namespace);
    const killedAt = Date.now();
    redis.killMaster();
    log(`${name}: master killed`);
    await waitFor('a replica to take over', () => redis.promoted(), 60_000, 100);
    const promotedMs = Date.now() - killedAt;
    await sleep(Math.max(0, killedAt + loadAfterMs - Date.now()));
    stopSubmits = true;
    giveUpAt = Date.now() + 60_000;
    await submits;
    await Promise.all(inFlight);

    admin = redis.adminClient();
    const { stopAt, pausedAt } = await stopSchedules({
      db,
      redis: admin,
      namespace,
      schedulers: [sched],
      client: () => tw,
      jobs,
    });
    await noneLeft(db, 'every instance to end', ...unfinished(namespace), 40_000); // the verdict names what did not
    const verdict = await judge(db, { namespace, taskIds, failing: new Set(), stopAt, pausedAt, log: receiver.log });
    const f = figures(verdict, receiver.log, answers, killedAt, promotedMs, taskIds.length, waiting.length);
    keepLogs ||= !verdict.ok || unclear(f.after).length > 0;
    return f;
  } catch (err) {
    keepLogs = true;
    throw err;
  } finally {
    if (keepLogs) log(`${name}: the product's logs are kept in ${logDir}`);
    await Promise.all([sched.stop(), exec.stop()]);
    admin ??= redis.adminClient();
    await cleanup(db, admin, namespace, appId).catch((err: Error) => log(`clean-up: ${err.message}`));
    admin.disconnect();
    await Promise.all([db.end(), receiver.close(), callbacks.close()]);
    if (!keepLogs) rmSync(logDir, { recursive: true, force: true });
  }
}

function figures(
  verdict: FailoverFigures['verdict'],
  effects: SideEffect[],
  answers: Answer[],
  killedAt: number,
  promotedMs: number,
  submitted: number,
  unaccepted: number,
): FailoverFigures {
  const after = answers.filter((a) => a.sentAt + a.ms >= killedAt);
  const firstOk = after.find((a) => a.status >= 200 && a.status < 300 && a.sentAt >= killedAt);
  const apiResumeMs = firstOk ? firstOk.sentAt + firstOk.ms - killedAt : NaN;
  const meanwhile: Record<string, number> = {};
  for (const a of after)
    if (a.sentAt >= killedAt && (!firstOk || a.sentAt < firstOk.sentAt))
      meanwhile[String(a.status)] = (meanwhile[String(a.status)] ?? 0) + 1;
  const times = (prefix: string) => effects.filter((e) => e.path.startsWith(prefix)).map((e) => e.at);
  return {
    verdict,
    promotedMs,
    firesResumeMs: resumeAfter(times('/fire/'), killedAt),
    dispatchResumeMs: resumeAfter(times('/task'), killedAt),
    apiResumeMs,
    meanwhile,
    after,
    maxAnswerMs: Math.max(0, ...after.map((a) => a.ms)),
    submitted,
    unaccepted,
  };
}

/** The answers that are neither a 2xx nor a 503 with Retry-After, or that took HANG_MS or more (none may be). */
export function unclear(answers: Answer[]): Answer[] {
  const clear = (a: Answer) => (a.status >= 200 && a.status < 300) || (a.status === 503 && a.retryAfter !== null);
  return answers.filter((a) => !clear(a) || a.ms >= HANG_MS);
}

/** One line of figures for the test's output (and the report). */
export function describeFigures(name: string, f: FailoverFigures): string {
  const k = f.verdict.counts;
  return (
    `${name}: verdict ${f.verdict.ok ? 'OK' : 'FAIL'} fires=${k.fires}/${k.expectedFires} tasks=${k.tasks}/${f.submitted} ` +
    `missing=${k.missing} dup=${k.dup} extra=${k.extra} doubleSuccess=${k.doubleSuccess} unfinished=${k.unfinished} ` +
    `unexplained=${k.unexplained} reruns=${k.reruns}; promoted after ${f.promotedMs} ms, fires resumed after ` +
    `${f.firesResumeMs} ms, dispatch after ${f.dispatchResumeMs} ms, API 2xx again after ${f.apiResumeMs} ms; ` +
    `answers meanwhile ${JSON.stringify(f.meanwhile)}, slowest answer after the kill ${f.maxAnswerMs} ms` +
    (f.verdict.ok ? '' : `\n  ${f.verdict.examples.join('\n  ')}`)
  );
}
