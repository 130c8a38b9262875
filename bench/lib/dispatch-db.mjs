// MariaDB / Redis side of the dispatch benchmark: the API client (created with the product's own
// create-app), waiting for the tasks to finish, reading them back, server counters, and clean-up.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cleanup } from './db.mjs';

const UNFINISHED = ['PENDING', 'WAITING', 'DISPATCHED', 'RUNNING'];

/**
 * Creates API client `appId` the way an operator does (`npm run create-app`): runs the product's
 * dist/src/bin/create-app.js with the cluster settings, and returns a signed TickwheelClient built from
 * the product's dist/src/client/tickwheel-client.js.
 * @param {{mainJs: string, cwd: string}} product
 * @param {Record<string, string>} env DB_URL, REDIS_URL, TICKWHEEL_SECRET_KEY (the key the API process uses)
 * @param {string} appId 3-64 of [A-Za-z0-9_.-]
 * @param {string} baseUrl e.g. http://127.0.0.1:3000
 * @param {string[]} [scopes] the client's scopes (create-app --scopes); default create-app's defaults
 * @returns {Promise<{client: any, appId: string, secret: string}>}
 * @throws Error when create-app fails or prints no secret
 */
export async function createApiClient(product, env, appId, baseUrl, scopes) {
  const bin = join(dirname(product.mainJs), 'bin/create-app.js');
  // Unlimited (--rate-limit 0): the benchmark measures throughput, not the default per-app rate limit.
  const extra = scopes ? ['--scopes', scopes.join(',')] : [];
  const r = spawnSync(process.execPath, [bin, appId, '--rate-limit', '0', ...extra], {
    cwd: product.cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env, LOG_LEVEL: 'error' },
  });
  const secret = /Secret:\s+([0-9a-f]+)/.exec(r.stdout ?? '')?.[1];
  if (r.status !== 0 || !secret)
    throw new Error(`create-app ${appId} failed (exit ${r.status}): ${r.stderr || r.stdout}`);
  const { TickwheelClient } = await import(
    pathToFileURL(join(dirname(product.mainJs), 'client/tickwheel-client.js')).href
  );
  return { client: new TickwheelClient({ baseUrl, appId, secret }), appId, secret };
}

/**
 * Unfinished (PENDING, WAITING, DISPATCHED, RUNNING) tasks of `appId` submitted at or after `since`
 * (fire_time of an API task = its submit time), via the (status, fire_time) index: cheap while the
 * backlog drains, whatever else the shared table holds.
 * @returns {Promise<number>}
 */
export async function unfinishedCount(pool, appId, since) {
  const [[r]] = await pool.query(
    `SELECT COUNT(*) AS c FROM job_instance FORCE INDEX (ix_job_instance_status_fire)
      WHERE status IN (?) AND fire_time >= ? AND app_id = ?`,
    [UNFINISHED, since, appId],
  );
  return Number(r.c);
}

/**
 * Polls until no task of `appId` since `since` is unfinished, or none finished for `stallS` seconds,
 * or `timeoutS` passed. Call once every task was accepted (each 202 means its row is committed).
 * @returns {Promise<{done: boolean, at: number, left: number, polls: number}>}
 */
export async function waitFinished(
  pool,
  appId,
  since,
  { everyMs = 200, stallS = 60, timeoutS = 900, onProgress } = {},
) {
  const end = Date.now() + timeoutS * 1000;
  let polls = 0;
  let last = Infinity;
  let lastChange = Date.now();
  for (;;) {
    const left = await unfinishedCount(pool, appId, since);
    polls++;
    const at = Date.now();
    if (left === 0) return { done: true, at, left, polls };
    if (left < last) {
      last = left;
      lastChange = at;
      onProgress?.(left);
    }
    if (at - lastChange > stallS * 1000 || at > end) return { done: false, at, left, polls };
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Every task row of `appId`, and how many job_attempt rows each has (`result` as stored, JSON text or null).
 * @returns {Promise<Array<{requestId: string, id: string, status: string, attempt: number, nodeId: string|null,
 *   createdAt: number, dispatchedAt: number|null, startedAt: number|null, finishedAt: number|null, dueAt: number,
 *   result: string|null, attempts: number}>>}
 */
export async function readTasks(pool, appId) {
  const [rows] = await pool.query(
    `SELECT i.id, i.request_id, i.status, i.attempt, i.node_id, i.created_at, i.dispatched_at, i.started_at, i.finished_at, i.due_at,
            i.result, (SELECT COUNT(*) FROM job_attempt a WHERE a.instance_id = i.id) AS attempts
       FROM job_instance i WHERE i.app_id = ?`,
    [appId],
  );
  const num = (v) => (v === null ? null : Number(v));
  return rows.map((r) => ({
    id: r.id,
    requestId: r.request_id,
    status: r.status,
    attempt: Number(r.attempt),
    nodeId: r.node_id,
    createdAt: Number(r.created_at),
    dispatchedAt: num(r.dispatched_at),
    startedAt: num(r.started_at),
    finishedAt: num(r.finished_at),
    dueAt: Number(r.due_at),
    result: r.result,
    attempts: Number(r.attempts),
  }));
}

const DB_COUNTERS = [
  'Questions',
  'Com_select',
  'Com_insert',
  'Com_update',
  'Com_delete',
  'Com_commit',
  'Handler_commit',
  'Innodb_data_fsyncs',
  'Innodb_log_writes',
  'Handler_read_key',
  'Handler_read_next',
  'Handler_read_rnd_next',
  'Handler_write',
  'Handler_update',
  'Bytes_received',
  'Bytes_sent',
];

/**
 * The MariaDB server's global counters that say how many statements, commits and log flushes happened
 * (SHOW GLOBAL STATUS). They are server-wide: other work on the shared server counts too.
 * @returns {Promise<Record<string, number>>}
 */
export async function dbCounters(pool) {
  const [rows] = await pool.query('SHOW GLOBAL STATUS WHERE Variable_name IN (?)', [DB_COUNTERS]);
  return Object.fromEntries(rows.map((r) => [r.Variable_name, Number(r.Value)]));
}

/**
 * Redis calls and microseconds per command (INFO commandstats), server-wide.
 * @returns {Promise<Record<string, {calls: number, usec: number}>>}
 */
export async function redisCommandStats(redis) {
  const out = {};
  for (const line of (await redis.info('commandstats')).split('\n')) {
    const m = /^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/.exec(line.trim());
    if (m) out[m[1]] = { calls: Number(m[2]), usec: Number(m[3]) };
  }
  return out;
}

/**
 * Per-task server work between two counter snapshots: MariaDB statements/commits/fsyncs and Redis calls by
 * command. `harnessQueries` (the bench's own polls) is taken off Questions and Com_select.
 * @returns {{db: Record<string, number>, redis: Array<{cmd: string, calls: number, perTask: number, usecPerCall: number}>, redisCallsPerTask: number}}
 */
export function perTask(before, after, tasks, harnessQueries = 0) {
  const db = {};
  for (const k of DB_COUNTERS)
    db[k] =
      ((after.db[k] ?? 0) - (before.db[k] ?? 0) - (k === 'Questions' || k === 'Com_select' ? harnessQueries : 0)) /
      tasks;
  const redis = [];
  let total = 0;
  for (const [cmd, a] of Object.entries(after.redis)) {
    const b = before.redis[cmd] ?? { calls: 0, usec: 0 };
    const calls = a.calls - b.calls;
    if (calls <= 0 || cmd === 'info') continue;
    total += calls;
    redis.push({ cmd, calls, perTask: calls / tasks, usecPerCall: (a.usec - b.usec) / calls });
  }
  redis.sort((x, y) => y.calls - x.calls);
  return { db, redis, redisCallsPerTask: total / tasks };
}

/**
 * Deletes everything one case wrote: attempts and instances of `appId`, the namespace's rows and Redis
 * keys ({@link cleanup}), the API client, and the executor_node rows whose id starts with `nodePrefix`.
 * @returns {Promise<{attempts: number, instances: number, keys: number, nodes: number}>}
 */
export async function cleanupCase(pool, redis, { namespace, appId, nodePrefix, since }) {
  let attempts = 0;
  let instances = 0;
  if (appId) {
    const [a] = await pool.query(
      'DELETE a FROM job_attempt a JOIN job_instance i ON a.instance_id = i.id WHERE i.app_id = ?',
      [appId],
    );
    attempts = a.affectedRows;
    for (;;) {
      const [d] = await pool.query('DELETE FROM job_instance WHERE app_id = ? LIMIT 5000', [appId]);
      instances += d.affectedRows;
      if (d.affectedRows < 5000) break;
    }
  }
  const c = await cleanup(pool, redis, namespace, since);
  if (appId) await pool.query('DELETE FROM api_client WHERE app_id = ?', [appId]);
  const [n] = await pool.query('DELETE FROM executor_node WHERE node_id LIKE ?', [`${nodePrefix}%`]);
  return { attempts, instances: instances + c.instances, keys: c.keys, nodes: n.affectedRows };
}
