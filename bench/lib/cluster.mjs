// The clustered shape the API benches run (bench:dispatch, bench:delayed): one ROLES=api,scheduler process and
// E executor processes on the real MariaDB + Redis, CPU accounting of them and of the servers, the quiet-machine
// guard, and Ctrl-C clean-up.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import { Redis } from 'ioredis';
import { diffSqlTraces } from './dispatch-analyze.mjs';
import { cleanupCase, createApiClient, dbCounters, redisCommandStats, waitFinished } from './dispatch-db.mjs';
import { CLK_TCK, cpuTicks, freePort, loadNow, machineBusyTicks, startProduct } from './proc.mjs';

const SQL_TRACE = pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), 'sql-trace.mjs')).href;

/** Foreign CPU (cores) under which the machine counts as quiet. */
export const QUIET_CORES = 0.15;

/** CPU ticks of the bench's processes, the DB/Redis servers, this harness and the whole machine, at one instant. */
export function cpuSnapshot(api, executors, servers) {
  const self = process.cpuUsage();
  return {
    t: Date.now(),
    api: cpuTicks(api.pid),
    executors: executors.map((e) => cpuTicks(e.pid)),
    machine: machineBusyTicks(),
    mysqld: servers.mysqld.reduce((a, p) => a + cpuTicks(p), 0),
    redis: servers.redis.reduce((a, p) => a + cpuTicks(p), 0),
    harness: ((self.user + self.system) / 1e6) * CLK_TCK,
  };
}

/** Cores used between two snapshots, per process kind, and CPU seconds per 1,000 tasks of the product's processes. */
export function coresBetween(a, b, tasks) {
  const secs = (b.t - a.t) / 1000;
  const cores = (x, y) => (y - x) / CLK_TCK / secs;
  const executors = b.executors.map((t, i) => cores(a.executors[i], t));
  const out = {
    api: cores(a.api, b.api),
    executors,
    executorsTotal: executors.reduce((s, x) => s + x, 0),
    mysqld: cores(a.mysqld, b.mysqld),
    redis: cores(a.redis, b.redis),
    harness: cores(a.harness, b.harness),
    machine: cores(a.machine, b.machine),
  };
  out.foreign = Math.max(0, out.machine - out.api - out.executorsTotal - out.mysqld - out.redis - out.harness);
  out.apiCpuSPer1000 = (out.api * secs * 1000) / tasks;
  out.executorsCpuSPer1000 = (out.executorsTotal * secs * 1000) / tasks;
  return out;
}

/**
 * Like the peers' guard (../shared/peers/lib/common.js waitForQuiet): waits, at most `maxS` seconds, until
 * the CPU used by everything but the bench's processes and the servers stays under 0.15 cores for 3 s.
 * @param {Array<{pid: number}>} procs the api,scheduler process first, then the executors
 * @returns {Promise<{waitedS: number, foreignCores: number}>} the last sample
 */
export async function waitQuiet(procs, servers, maxS) {
  const t = Date.now();
  for (;;) {
    const a = cpuSnapshot(procs[0], procs.slice(1), servers);
    await new Promise((r) => setTimeout(r, 3000));
    const c = coresBetween(a, cpuSnapshot(procs[0], procs.slice(1), servers), 1);
    const waitedS = (Date.now() - t) / 1000;
    if (c.foreign < QUIET_CORES || waitedS >= maxS) return { waitedS, foreignCores: c.foreign };
  }
}

/**
 * {@link waitQuiet} for at most `maxS` seconds (none when 0), saying so through `log` when the machine stayed busy.
 * @returns {Promise<{waitedS: number, foreignCores: number}|undefined>}
 */
export async function settle(procs, servers, maxS, log) {
  if (!(maxS > 0)) return undefined;
  const q = await waitQuiet(procs, servers, maxS);
  if (q.foreignCores >= QUIET_CORES)
    log(
      `   machine busy: ${q.foreignCores.toFixed(2)} foreign cores after ${q.waitedS.toFixed(0)} s; measuring anyway`,
    );
  return q;
}

/**
 * Spawns one product process: with a --cpu-prof dir of its own when profiling, and with the SQL tracer
 * (bench/lib/sql-trace.mjs) preloaded when tracing.
 */
export async function spawnRole(product, env, profDir, traceFile) {
  const nodeArgs = [
    ...(profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []),
    ...(traceFile ? ['--import', SQL_TRACE] : []),
  ];
  const node = await startProduct(product, traceFile ? { ...env, BENCH_SQL_TRACE_FILE: traceFile } : env, nodeArgs);
  return { ...node, profDir, traceFile };
}

/**
 * Starts the cluster shape on a free port with {@link clusterSettings}: the api,scheduler process, then
 * `executors` executor processes (in parallel), each pushed onto `procs` as soon as it is up (so the caller's
 * `finally` stops what started); creates API client `appId` and waits until every executor advertises noop.
 * @param {{mainJs: string, cwd: string}} product
 * @param {{args: Record<string, any>, secretKey: string, namespace: string, appId: string, executors: number,
 *   nodePrefix: string, prof?: (role: string) => string|null, trace?: (role: string) => string|null,
 *   scopes?: string[]}} o node names are `<nodePrefix>api` and `<nodePrefix>1..E`; `scopes`: the client's (create-app)
 * @param {Array<object>} procs receives the processes
 * @returns {Promise<{api: object, execs: object[], client: any, env: Record<string, string>, port: number,
 *   nodes: string[], bootS: number}>} bootS: until the processes listened
 */
export async function startCluster(product, o, procs) {
  const t = Date.now();
  const prof = o.prof ?? (() => null);
  const trace = o.trace ?? (() => null);
  const port = await freePort();
  const env = clusterSettings(o.args, o.secretKey, o.namespace);
  const api = await spawnRole(
    product,
    { ...env, ROLES: 'api,scheduler', PORT: String(port), NODE_NAME: `${o.nodePrefix}api` },
    prof('api'),
    trace('api'),
  );
  procs.push(api);
  const execs = await Promise.all(
    Array.from({ length: o.executors }, async (_, i) => {
      const e = await spawnRole(
        product,
        { ...env, ROLES: 'executor', PORT: '0', NODE_NAME: `${o.nodePrefix}${i + 1}` },
        prof(`exec${i + 1}`),
        trace(`exec${i + 1}`),
      );
      procs.push(e);
      return e;
    }),
  );
  const bootS = (Date.now() - t) / 1000;
  const baseUrl = `http://127.0.0.1:${port}`;
  const { client, secret } = await createApiClient(product, env, o.appId, baseUrl, o.scopes);
  const nodes = await waitExecutors(client, o.executors);
  return { api, execs, client, env, port, nodes, bootS, target: { baseUrl, appId: o.appId, secret } };
}

/** Asks every traced process for snapshot number `seq` of its SQL counts (a `.want` file) and reads them. */
export async function sqlSnapshots(procs, seq) {
  const traced = procs.filter((p) => p.traceFile);
  for (const p of traced) writeFileSync(`${p.traceFile}.${seq}.want`, '');
  const end = Date.now() + 10_000;
  while (traced.some((p) => !existsSync(`${p.traceFile}.${seq}`)) && Date.now() < end)
    await new Promise((r) => setTimeout(r, 20));
  return traced.map((p) =>
    existsSync(`${p.traceFile}.${seq}`) ? JSON.parse(readFileSync(`${p.traceFile}.${seq}`, 'utf8')) : null,
  );
}

/**
 * SQL statements per task by shape since snapshot `before` ({@link sqlSnapshots} seq 1) of the api,scheduler
 * process (`procs[0]`) and of the executors (the rest, summed).
 */
export async function sqlTraceSince(procs, before, tasks) {
  const after = await sqlSnapshots(procs, 2);
  return {
    api: diffSqlTraces([before[0]], [after[0]], tasks),
    executors: diffSqlTraces(before.slice(1), after.slice(1), tasks),
  };
}

/** Deletes the --cpu-prof dirs and SQL trace files of stopped processes. */
export function removeProcFiles(procs) {
  for (const p of procs) {
    if (p.profDir) rmSync(p.profDir, { recursive: true, force: true });
    if (p.traceFile) for (const f of ['.1', '.1.want', '.2', '.2.want']) rmSync(`${p.traceFile}${f}`, { force: true });
  }
}

/** Waits until GET /api/nodes lists `count` live executors advertising `noop`; returns their node ids. */
export async function waitExecutors(client, count, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    // By name: a client without admin sees only the executors serving a handler of its work (docs/api.md).
    const r = await client.request('GET', '/api/nodes?handler=noop').catch(() => null);
    const live = r?.status === 200 ? r.body.items.filter((n) => n.handlers?.includes('noop')) : [];
    if (live.length >= count) return live.map((n) => n.nodeId);
    if (Date.now() > end)
      throw new Error(
        `only ${live.length}/${count} executors advertise noop after ${timeoutMs} ms: ${JSON.stringify(r?.body).slice(0, 300)}`,
      );
    await new Promise((res) => setTimeout(res, 200));
  }
}

/**
 * The settings every process of a case runs with: the servers, the sitting's secret key, the case's namespace,
 * warn-level logs on 127.0.0.1, then `--env` (which may override any of them).
 */
export function clusterSettings(args, secretKey, namespace) {
  return {
    DB_URL: args.db,
    REDIS_URL: args.redis,
    TICKWHEEL_SECRET_KEY: secretKey,
    TICKWHEEL_NAMESPACE: namespace,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    ...envPairs(args.env),
  };
}

/** MariaDB global counters and Redis command stats at one instant (for dispatch-db.mjs perTask). */
export async function serverCounters(pool, redis) {
  return { db: await dbCounters(pool), redis: await redisCommandStats(redis) };
}

/**
 * Submits the warm-up `tasks` with `submit` and waits until they ran, so the measured window starts with warm
 * processes.
 * @param {(tasks: object[]) => Promise<{accepted: number}>} submit
 * @returns {Promise<number>} seconds it took
 * @throws Error when a task was refused or did not finish within 120 s
 */
export async function warmUp(pool, appId, since, tasks, submit) {
  const t = Date.now();
  const w = await submit(tasks);
  const done = await waitFinished(pool, appId, since, { everyMs: 100, stallS: 30, timeoutS: 120 });
  if (w.accepted !== tasks.length || !done.done)
    throw new Error(`warm-up failed: ${w.accepted}/${tasks.length} accepted, ${done.left} unfinished`);
  return (Date.now() - t) / 1000;
}

/**
 * Opens the MariaDB pool and Redis connection of a sitting, runs `fn(pool, redis, secretKey)` with a fresh
 * secret key for the product, and closes them whatever happens. Records Redis hz and the load in `report`.
 */
export async function withServers(args, report, log, fn) {
  log(`product: ${report.product}; node ${process.version}; ${loadNow().uptime}`);
  const pool = mysql.createPool({ uri: args.db, connectionLimit: 4, supportBigNumbers: true });
  const redis = new Redis(args.redis, { lazyConnect: false, maxRetriesPerRequest: 2 });
  try {
    report.redisHz = Number((await redis.config('GET', 'hz'))[1]);
    await fn(pool, redis, randomBytes(32).toString('hex'));
  } finally {
    await pool.end();
    redis.disconnect();
  }
}

/** `--env K=V,K=V` as an object (a value may hold `=`). */
export function envPairs(spec) {
  return Object.fromEntries(
    spec
      .split(',')
      .filter(Boolean)
      .map((kv) => kv.split(/=(.*)/s).slice(0, 2)),
  );
}

/**
 * Ends a case: stops its processes, then deletes what it wrote ({@link cleanupCase}) unless `keep`, saying which
 * through `log`.
 * @param {{procs: Array<{stop: () => Promise<unknown>}>, pool: any, redis: any, namespace: string, appId: string}} c
 */
export async function endCase(c, keep, log) {
  for (const p of c.procs) await p.stop();
  if (keep) {
    log(`   --keep: left namespace ${c.namespace} / app ${c.appId} in place`);
    return;
  }
  const r = await cleanupCase(c.pool, c.redis, c);
  log(
    `   cleaned up: ${r.instances} instances, ${r.attempts} attempts, ${r.keys} Redis keys, ${r.nodes} executor_node rows`,
  );
}

/**
 * On SIGINT/SIGTERM stops the case in progress (`active()`: `{procs, pool, redis, namespace, ...}` for
 * {@link cleanupCase}, or null) and deletes its rows unless `keep`, then exits 130. Also keeps a closed stdout
 * pipe (`| head`) from killing the run before its clean-up.
 */
export function cleanUpOnSignal(active, keep) {
  for (const sig of ['SIGINT', 'SIGTERM']) {
    process.once(sig, async () => {
      const a = active();
      process.stderr.write(
        `\n${sig}: stopping the product processes and cleaning up${a ? ` namespace ${a.namespace}` : ''}...\n`,
      );
      try {
        if (a) await Promise.all(a.procs.map((p) => p.stop()));
        if (a && !keep) await cleanupCase(a.pool, a.redis, a);
      } finally {
        process.exit(130);
      }
    });
  }
  process.stdout.on('error', () => {});
}
