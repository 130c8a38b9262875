// The work of a chaos run, all running the built-in `http` handler against the side-effect receiver: cron jobs
// firing every 1-5 s, and API tasks submitted in batches and singly, some delayed; some with their own callback;
// a known share of the tasks planned to fail (their call is answered 500), which the notification rule reports.
import { persist } from './product.mjs';
import { pool, sleep } from './run-util.mjs';

/**
 * Creates `o.jobs` cron jobs, every k s for k = 1..5, FIRE_ALL, so a fire missed while no leader ran is made up,
 * never dropped. A third of them have their own callback URL; the rest use the app's default registration.
 * `client()` is a client of the API process as it is now (its port changes on each restart).
 * @returns {Promise<Array<{ code: string, k: number, ownCb: boolean }>>} the jobs
 */
export async function createJobs(client, o, { receiver, callbacks }) {
  const jobs = Array.from({ length: o.jobs }, (_, i) => ({
    code: `chaos-job-${i}`,
    k: 1 + (i % 5),
    ownCb: i % 3 === 0,
  }));
  const setupUntil = Date.now() + 120_000;
  await pool(jobs, 8, async (j) => {
    const res = await persist(
      `create ${j.code}`,
      () =>
        client().request('POST', '/api/jobs', {
          code: j.code,
          handler: 'http',
          triggerType: 'CRON',
          triggerExpr: j.k === 1 ? '* * * * * *' : `*/${j.k} * * * * *`,
          params: { method: 'POST', url: `${receiver.url}/fire/${j.code}` },
          misfirePolicy: 'FIRE_ALL',
          retryMax: 19,
          retryBackoffMs: 100,
          ...(j.ownCb ? { callbackUrl: `${callbacks.url}/cb/job` } : {}),
        }),
      setupUntil,
    );
    if (res.status !== 201 && res.status !== 200)
      throw new Error(`create ${j.code}: ${res.status} ${JSON.stringify(res.body)}`);
  });
  return jobs;
}

/**
 * Submits `o.tasks` API tasks spread over the first 80 % of the chaos window from `t0` (epoch ms): groups of 1-60,
 * a group of 5 or more as one batch, `o['delayed-share']` of them delayed up to 3 s, half with their own callback.
 * `o['fail-share']` of them, spread evenly by index (no draw from `o.rand`, so a seed's kills and submits stay as
 * they were), call `/fail` (answered 500) with two attempts: each ends FAILED after one retry.
 * @returns {{ taskIds: string[], ownCallback: Set<string>, failing: Set<string>, done: Promise<void> }} the request
 *   ids as submitted, those with their own callback URL, those planned to fail, and the end of the submits
 */
export function submitTasks(client, o, { namespace, receiver, callbacks, t0 }) {
  const { rand, between } = o;
  const taskIds = [];
  const ownCallback = new Set();
  const failing = new Set();
  const share = o['fail-share'];
  const done = (async () => {
    const perMs = o.tasks / (o.duration * 800);
    let nextAt = t0;
    let i = 0;
    while (i < o.tasks) {
      const n = Math.min(o.tasks - i, Math.max(1, Math.round(between(1, 60))));
      const tasks = Array.from({ length: n }, () => {
        const fails = Math.floor((i + 1) * share) > Math.floor(i * share);
        const requestId = `chaos-${namespace}-t${i++}`;
        taskIds.push(requestId);
        if (fails) failing.add(requestId);
        const delayMs = rand() < o['delayed-share'] ? Math.round(between(0, 3000)) : undefined;
        const ownCb = rand() < 0.5;
        if (ownCb) ownCallback.add(requestId);
        return {
          requestId,
          handler: 'http',
          params: { method: 'POST', url: `${receiver.url}/${fails ? 'fail' : 'task'}` },
          maxAttempts: fails ? 2 : 20,
          retryBackoffMs: 100,
          ...(delayMs ? { delayMs } : {}),
          ...(ownCb ? { callbackUrl: `${callbacks.url}/cb/task` } : {}),
        };
      });
      const giveUp = Date.now() + 90_000;
      if (n >= 5) {
        const res = await persist('batch submit', () => client().submitTasks(tasks), giveUp);
        // A refused item's `error` is a problem object; an accepted replay of a task that failed has its own string.
        const refused =
          res.status === 202 ? res.body.results.filter((r) => typeof r.error === 'object' && r.error) : [res.body];
        if (refused.length > 0) throw new Error(`batch refused: ${res.status} ${JSON.stringify(refused[0])}`);
      } else {
        for (const t of tasks) {
          const res = await persist('submit', () => client().submitTask(t), giveUp);
          if (res.status !== 202) throw new Error(`submit ${t.requestId}: ${res.status} ${JSON.stringify(res.body)}`);
        }
      }
      nextAt += (n / perMs) * between(0.5, 1.5);
      await sleep(nextAt - Date.now());
    }
  })();
  return { taskIds, ownCallback, failing, done };
}

/** Pauses every job of `jobs`, 8 at a time. @returns {Promise<Map<string, number>>} job code → paused at (epoch ms) */
export async function pauseJobs(client, jobs) {
  const pausedAt = new Map();
  const pauseUntil = Date.now() + 60_000;
  await pool(jobs, 8, async (j) => {
    const res = await persist(
      `pause ${j.code}`,
      () => client().request('POST', `/api/jobs/${j.code}/pause`),
      pauseUntil,
    );
    if (res.status >= 300) throw new Error(`pause ${j.code}: ${res.status} ${JSON.stringify(res.body)}`);
    pausedAt.set(j.code, Date.now());
  });
  return pausedAt;
}
