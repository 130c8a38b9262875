// Dispatch (throughput) benchmark of Tickwheel on the real MariaDB + Redis.  Run: npm run bench:dispatch [-- flags]
// The clustered shape: one product process with ROLES=api,scheduler and E executor processes (ROLES=executor),
// a fresh namespace and API client per case; N tasks with the built-in `noop` handler, submitted either one
// signed POST /api/tasks each (a bounded number in flight, or open loop at --rate requests a second, timing
// each answer) or through POST /api/tasks/batch (1,000 per request). Figures come from the rows in
// job_instance. See bench/README.md.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import mysql from 'mysql2/promise';
import { Redis } from 'ioredis';
import { analyzeTasks, diffSqlTraces } from './lib/dispatch-analyze.mjs';
import {
  cleanupCase,
  createApiClient,
  dbCounters,
  perTask,
  readTasks,
  redisCommandStats,
  waitFinished,
} from './lib/dispatch-db.mjs';
import {
  printDispatchPeers,
  printDispatchProfiles,
  printDispatchResults,
  printSqlTraces,
  rateLine,
  ratios,
} from './lib/dispatch-report.mjs';
import {
  CLK_TCK,
  cpuTicks,
  freePort,
  loadNow,
  machineBusyTicks,
  prepareProduct,
  rssMb,
  runPeerScript,
  serverPids,
  startProduct,
} from './lib/proc.mjs';
import { summariseProfile } from './lib/cpuprof.mjs';
import { parseArgs } from './lib/stats.mjs';
import { submitAtRate, submitBatch, submitSingle } from './lib/submit.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const HELP = `npm run bench:dispatch -- [--n 20000] [--executors 1,2,4] [--modes single,batch] [--in-flight 50] [--rate 0]
  [--batch-size 1000] [--batch-in-flight 1] [--warmup 500] [--quiet-wait 15] [--stall 60] [--timeout 900] [--poll-ms 200]
  [--env K=V,K=V] [--source auto|tree|head|dist] [--json] [--keep] [--cpu-prof] [--sql-trace] [--progress [only]]
  [--with-peers] [--peers-only] [--peer-runs 1] [--peer-concurrency 10,100] [--peer-topologies inproc,2proc] [--pgboss true|false]
  [--db mysql://root@127.0.0.1:3306/test] [--redis redis://127.0.0.1:6379]`;
const args = parseArgs(
  {
    n: 20000,
    executors: [1, 2, 4],
    modes: 'single,batch',
    'in-flight': 50,
    rate: 0,
    'batch-size': 1000,
    'batch-in-flight': 1,
    warmup: 500,
    'quiet-wait': 15,
    stall: 60,
    timeout: 900,
    'poll-ms': 200,
    env: '',
    source: 'auto',
    json: false,
    keep: false,
    'cpu-prof': false,
    'sql-trace': false,
    progress: '',
    'with-peers': false,
    'peers-only': false,
    'peer-runs': 1,
    'peer-concurrency': '10,100',
    'peer-topologies': 'inproc,2proc',
    pgboss: true,
    help: false,
    db: process.env.BENCH_DB_URL ?? 'mysql://root@127.0.0.1:3306/test',
    redis: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
  },
  process.argv.slice(2),
);
if (args.help) {
  console.log(HELP);
  process.exit(0);
}
const MODES = args.modes.split(',').filter(Boolean);
/**
 * --progress: each noop task reports progress once and stores one checkpoint (noop params, bench/README.md);
 * --progress only: progress alone. The plain run's tasks have no params.
 */
const NOOP_PARAMS = { '': undefined, true: { progress: true, checkpoint: true }, only: { progress: true } }[
  args.progress
];
if (!(args.progress in { '': 1, true: 1, only: 1 })) throw new Error(`--progress: '${args.progress}' (none, or only)`);
const noopTask = (requestId) =>
  NOOP_PARAMS ? { requestId, handler: 'noop', params: NOOP_PARAMS } : { requestId, handler: 'noop' };
for (const m of MODES)
  if (m !== 'single' && m !== 'batch') throw new Error(`--modes: unknown mode '${m}' (single, batch)`);
if (!(args.rate >= 0)) throw new Error(`--rate: '${args.rate}' (requests per second; 0 = closed loop)`);
/** Progress goes to stderr when --json owns stdout. */
const log = (s) => (args.json ? process.stderr : process.stdout).write(`${s}\n`);
const NODE_PREFIX = `benchd-${process.pid}-`;

/** CPU ticks of the bench's processes, the DB/Redis servers, this harness and the whole machine, at one instant. */
function cpuSnapshot(api, executors, servers) {
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

const QUIET_CORES = 0.15;

/**
 * Like the peers' guard (../shared/peers/lib/common.js waitForQuiet): waits, at most `maxS` seconds, until
 * the CPU used by everything but the bench's processes and the servers stays under 0.15 cores for 3 s.
 * @returns {Promise<{waitedS: number, foreignCores: number}>} the last sample
 */
async function waitQuiet(procs, servers, maxS) {
  const t = Date.now();
  for (;;) {
    const a = cpuSnapshot(procs[0], procs.slice(1), servers);
    await new Promise((r) => setTimeout(r, 3000));
    const c = coresBetween(a, cpuSnapshot(procs[0], procs.slice(1), servers), 1);
    const waitedS = (Date.now() - t) / 1000;
    if (c.foreign < QUIET_CORES || waitedS >= maxS) return { waitedS, foreignCores: c.foreign };
  }
}

/** Cores used between two snapshots, per process kind, and CPU seconds per 1,000 tasks of the product's processes. */
function coresBetween(a, b, tasks) {
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

/** The case in progress, so Ctrl-C (SIGINT/SIGTERM) can stop its processes and delete its rows. */
let active = null;
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.once(sig, async () => {
    process.stderr.write(
      `\n${sig}: stopping the product processes and cleaning up${active ? ` namespace ${active.namespace}` : ''}...\n`,
    );
    try {
      if (active) await Promise.all(active.procs.map((p) => p.stop()));
      if (active && !args.keep) await cleanupCase(active.pool, active.redis, active);
    } finally {
      process.exit(130);
    }
  });
}
process.stdout.on('error', () => {}); // a closed pipe (| head) must not kill the run before cleanup

const SQL_TRACE = pathToFileURL(join(REPO, 'bench/lib/sql-trace.mjs')).href;

/**
 * Spawns one product process: with a --cpu-prof dir of its own when profiling, and with the SQL tracer
 * (bench/lib/sql-trace.mjs) preloaded when tracing.
 */
async function spawnRole(product, env, profDir, traceFile) {
  const nodeArgs = [
    ...(profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []),
    ...(traceFile ? ['--import', SQL_TRACE] : []),
  ];
  const node = await startProduct(product, traceFile ? { ...env, BENCH_SQL_TRACE_FILE: traceFile } : env, nodeArgs);
  return { ...node, profDir, traceFile };
}

/** Asks every traced process for snapshot number `seq` of its SQL counts (a `.want` file) and reads them. */
async function sqlSnapshots(procs, seq) {
  const traced = procs.filter((p) => p.traceFile);
  for (const p of traced) writeFileSync(`${p.traceFile}.${seq}.want`, '');
  const end = Date.now() + 10_000;
  while (traced.some((p) => !existsSync(`${p.traceFile}.${seq}`)) && Date.now() < end)
    await new Promise((r) => setTimeout(r, 20));
  return traced.map((p) =>
    existsSync(`${p.traceFile}.${seq}`) ? JSON.parse(readFileSync(`${p.traceFile}.${seq}`, 'utf8')) : null,
  );
}

/** Waits until GET /api/nodes lists `count` live executors advertising `noop`. */
async function waitExecutors(client, count, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const r = await client.request('GET', '/api/nodes').catch(() => null);
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
 * Submits `tasks` in `mode` and returns what the API answered. `target` (appId, secret, baseUrl) given and
 * --rate set: single submits go open loop at that rate (submitAtRate); warm-ups pass none.
 */
function submit(client, mode, tasks, target) {
  if (mode === 'single' && target && args.rate > 0) return submitAtRate(target, tasks, args.rate);
  return mode === 'single'
    ? submitSingle(client, tasks, args['in-flight'])
    : submitBatch(client, tasks, args['batch-size'], args['batch-in-flight']);
}

/** Runs one case (E executors, one submit mode) end to end and returns its figures. */
async function runCase(executors, mode, product, pool, redis, secretKey) {
  const hex = randomBytes(4).toString('hex');
  const namespace = `benchd-${executors}x-${mode}-${hex}`;
  const appId = `benchd-${hex}`;
  const since = Date.now();
  const procs = [];
  active = { namespace, appId, nodePrefix: NODE_PREFIX, since: since - 120_000, procs, pool, redis };
  log(`\n== ${executors} executor${executors > 1 ? 's' : ''}, ${mode} submit, namespace ${namespace}`);
  const extra = Object.fromEntries(
    args.env
      .split(',')
      .filter(Boolean)
      .map((kv) => kv.split(/=(.*)/s).slice(0, 2)),
  );
  const port = await freePort();
  const common = {
    DB_URL: args.db,
    REDIS_URL: args.redis,
    TICKWHEEL_SECRET_KEY: secretKey,
    TICKWHEEL_NAMESPACE: namespace,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    ...extra,
  };
  const prof = (role) =>
    args['cpu-prof'] ? `/tmp/tickwheel-bench-prof-${process.pid}-${executors}x-${mode}-${role}` : null;
  const trace = (role) =>
    args['sql-trace'] ? `/tmp/tickwheel-bench-sql-${process.pid}-${executors}x-${mode}-${role}` : null;
  const result = {
    executors,
    mode,
    namespace,
    appId,
    n: args.n,
    settings: { ...common, TICKWHEEL_SECRET_KEY: '(random)', DB_URL: args.db },
  };
  let t = Date.now();
  try {
    const api = await spawnRole(
      product,
      { ...common, ROLES: 'api,scheduler', PORT: String(port), NODE_NAME: `${NODE_PREFIX}api` },
      prof('api'),
      trace('api'),
    );
    procs.push(api);
    const execs = await Promise.all(
      Array.from({ length: executors }, (_, i) =>
        spawnRole(
          product,
          { ...common, ROLES: 'executor', PORT: '0', NODE_NAME: `${NODE_PREFIX}${i + 1}` },
          prof(`exec${i + 1}`),
          trace(`exec${i + 1}`),
        ),
      ),
    );
    procs.push(...execs);
    result.bootS = (Date.now() - t) / 1000;
    const baseUrl = `http://127.0.0.1:${port}`;
    const { client, secret } = await createApiClient(product, common, appId, baseUrl);
    result.nodes = await waitExecutors(client, executors);
    log(
      `   api,scheduler pid ${api.pid} on :${port}; executors ${execs.map((e) => e.pid).join(', ')} (${result.nodes.join(', ')}); up in ${result.bootS.toFixed(1)} s`,
    );

    if (args.warmup > 0) {
      t = Date.now();
      const warm = Array.from({ length: args.warmup }, (_, i) => noopTask(`warm-${i}`));
      const w = await submit(client, mode, warm);
      const done = await waitFinished(pool, appId, since, { everyMs: 100, stallS: 30, timeoutS: 120 });
      if (w.accepted !== args.warmup || !done.done)
        throw new Error(`warm-up failed: ${w.accepted}/${args.warmup} accepted, ${done.left} unfinished`);
      result.warmupS = (Date.now() - t) / 1000;
      log(`   warm-up: ${args.warmup} tasks in ${result.warmupS.toFixed(1)} s`);
    }

    const tasks = Array.from({ length: args.n }, (_, i) => noopTask(`r-${i}`));
    const servers = serverPids();
    if (args['quiet-wait'] > 0) {
      result.quiet = await waitQuiet(procs, servers, args['quiet-wait']);
      if (result.quiet.foreignCores >= QUIET_CORES)
        log(
          `   machine busy: ${result.quiet.foreignCores.toFixed(2)} foreign cores after ${result.quiet.waitedS.toFixed(0)} s; measuring anyway`,
        );
    }
    const rss0 = { api: rssMb(api.pid), executors: execs.map((e) => rssMb(e.pid)) };
    const counters0 = { db: await dbCounters(pool), redis: await redisCommandStats(redis) };
    const sql0 = args['sql-trace'] ? await sqlSnapshots(procs, 1) : null;
    result.loadStart = loadNow();
    const cpu0 = cpuSnapshot(api, execs, servers);
    const t0 = Date.now();
    const sub = await submit(client, mode, tasks, { baseUrl, appId, secret });
    const tSubmitted = Date.now();
    result.submit = {
      accepted: sub.accepted,
      refused: sub.refused.length,
      refusedSample: sub.refused.slice(0, 5),
      requests: sub.requests,
      ms: tSubmitted - t0,
      perSec: args.n / ((tSubmitted - t0) / 1000),
      requestMs: sub.requestMs,
      rate: sub.rate,
    };
    log(
      `   submitted ${sub.accepted}/${args.n} in ${(result.submit.ms / 1000).toFixed(1)} s (${Math.round(result.submit.perSec)}/s${sub.refused.length ? `, ${sub.refused.length} REFUSED` : ''}); waiting for the rest...`,
    );
    if (sub.rate) log(`   ${rateLine(sub.rate)}`);
    const done = await waitFinished(pool, appId, t0, {
      everyMs: args['poll-ms'],
      stallS: args.stall,
      timeoutS: args.timeout,
    });
    const cpu1 = cpuSnapshot(api, execs, servers);
    const counters1 = { db: await dbCounters(pool), redis: await redisCommandStats(redis) };
    if (sql0) {
      const sql1 = await sqlSnapshots(procs, 2);
      result.sqlTrace = {
        api: diffSqlTraces([sql0[0]], [sql1[0]], args.n),
        executors: diffSqlTraces(sql0.slice(1), sql1.slice(1), args.n),
      };
    }
    result.loadEnd = loadNow();
    result.rss = { api: [rss0.api, rssMb(api.pid)], executors: execs.map((e, i) => [rss0.executors[i], rssMb(e.pid)]) };
    result.finished = done;
    if (!done.done)
      log(
        `   WARNING: ${done.left} tasks still unfinished (${done.at - t0 > args.timeout * 1000 ? 'timeout' : `no progress for ${args.stall} s`})`,
      );
    result.cores = coresBetween(cpu0, cpu1, args.n);
    result.windowMs = cpu1.t - cpu0.t;
    result.perTask = perTask(counters0, counters1, args.n, done.polls + 2);
    result.t0 = t0;
    result.submittedAt = tSubmitted;

    t = Date.now();
    const stops = [];
    for (const p of [...execs, api]) {
      const code = await p.stop();
      stops.push({ pid: p.pid, code, at: Date.now() });
    }
    result.stopS = (Date.now() - t) / 1000;
    result.exitCodes = stops.map((s) => s.code);
    result.productWarnLines = procs.reduce((s, p) => s + p.stats.warnLines, 0);
    result.productTail = procs.flatMap((p) => p.tail.slice(-2));
    if (args['cpu-prof']) {
      const end = done.at;
      result.cpuProfile = {
        api: summariseProfile(api.profDir, t0, end, stops[stops.length - 1].at, 20),
        executors: execs.map((e, i) => summariseProfile(e.profDir, t0, end, stops[i].at, 20)),
      };
    }
    const rows = await readTasks(pool, appId);
    Object.assign(result, analyzeTasks({ rows, requestIds: tasks.map((x) => x.requestId), t0 }));
    result.drainMs = result.lastFinish - tSubmitted;
    log(
      `   ${Math.round(result.tasksPerSec)} tasks/s; submit-to-start p50 ${result.latency.p50} ms p99 ${result.latency.p99} ms; lost ${result.lost}, doubled ${result.doubled}`,
    );
    return result;
  } finally {
    for (const p of procs) await p.stop();
    for (const p of procs) {
      if (p.profDir) rmSync(p.profDir, { recursive: true, force: true });
      if (p.traceFile)
        for (const f of ['.1', '.1.want', '.2', '.2.want']) rmSync(`${p.traceFile}${f}`, { force: true });
    }
    if (args.keep) log(`   --keep: left namespace ${namespace} / app ${appId} in place`);
    else {
      const c = await cleanupCase(pool, redis, active);
      log(
        `   cleaned up: ${c.instances} instances, ${c.attempts} attempts, ${c.keys} Redis keys, ${c.nodes} executor_node rows`,
      );
    }
    active = null;
  }
}

/** Runs bench/peers-dispatch.sh (BullMQ add/addBulk, pg-boss send/insert) and returns its summary JSON. */
async function runPeers() {
  return runPeerScript(
    REPO,
    'bench/peers-dispatch.sh',
    [
      '--n',
      String(args.n),
      '--runs',
      String(args['peer-runs']),
      '--concurrency',
      args['peer-concurrency'],
      '--topologies',
      args['peer-topologies'],
      '--pgboss',
      String(args.pgboss),
    ],
    { toStderr: args.json, log },
  );
}

async function main() {
  const report = { startedAt: new Date().toISOString(), node: process.version, args, results: [] };
  if (!args['peers-only']) {
    const product = prepareProduct(REPO, args.source, log);
    report.product = product.source;
    log(`product: ${product.source}; node ${process.version}; ${loadNow().uptime}`);
    const pool = mysql.createPool({ uri: args.db, connectionLimit: 4, supportBigNumbers: true });
    const redis = new Redis(args.redis, { lazyConnect: false, maxRetriesPerRequest: 2 });
    const secretKey = randomBytes(32).toString('hex');
    try {
      report.redisHz = Number((await redis.config('GET', 'hz'))[1]);
      for (const e of args.executors)
        for (const mode of MODES) report.results.push(await runCase(e, mode, product, pool, redis, secretKey));
    } finally {
      await pool.end();
      redis.disconnect();
    }
  }
  if (args['with-peers'] || args['peers-only']) report.peers = await runPeers();
  if (report.peers) report.ratios = ratios(report);
  report.finishedAt = new Date().toISOString();
  report.loadAtEnd = loadNow().uptime;
  if (report.results.length) printDispatchResults(report, log);
  printDispatchProfiles(report, log);
  printSqlTraces(report, log);
  if (report.peers) printDispatchPeers(report, log);
  if (args.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

main().catch((err) => {
  process.stderr.write(`bench:dispatch failed: ${err.stack ?? err.message}\n`);
  process.exit(1);
});
