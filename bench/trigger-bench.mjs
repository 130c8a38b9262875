// Trigger (firing) benchmark of Tickwheel on the real MariaDB + Redis.  Run: npm run bench:trigger [-- flags]
// Registers N cron jobs `S * * * * *` (S = i % 60, so N/60 fires every second), spawns ONE scheduler
// process of the product (ROLES=scheduler), and a stand-in executor node in this process that takes each
// id off its ready list the moment it arrives (--consumer false: nobody serves the handler and instances
// stay PENDING); measures a window, reads the instances back from MariaDB. See bench/README.md.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import mysql from 'mysql2/promise';
import { Redis } from 'ioredis';
import { analyze } from './lib/analyze.mjs';
import { envPairs, serverCounters } from './lib/cluster.mjs';
import { perTask } from './lib/dispatch-db.mjs';
import { enableByGrid, expectedSlots, MIXES, mixCounts } from './lib/mix.mjs';
import { startConsumer } from './lib/consumer.mjs';
import { BENCH_HANDLER, cleanup, enableJobs, firstFires, readInstances, registerJobs, SlotProbe } from './lib/db.mjs';
import {
  CLK_TCK,
  cpuTicks,
  hwmMb,
  loadNow,
  machineBusyTicks,
  pidsByComm,
  prepareProduct,
  rssMb,
  runPeerScript,
  startProduct,
} from './lib/proc.mjs';
import { summariseProfile } from './lib/cpuprof.mjs';
import { measureDbFloor } from './lib/db-floor.mjs';
import { distribution, parseArgs } from './lib/stats.mjs';
import { printFloor, printPeers, printProfiles, printResults, printScale } from './lib/report.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const HELP = `npm run bench:trigger -- [--n 10000,100000] [--mix uniform|big] [--warmup 10] [--window 60] [--grace 30] [--lead 5]
  [--probe-ms 20] [--consumer true|false] [--floor true|false] [--batch 0] [--env K=V,K=V] [--source auto|tree|head|dist] [--json] [--keep] [--cpu-prof]
  [--with-peers] [--peer-delayed-n 1000,10000] [--peer-schedulers 1000] [--peer-duration 30] [--peer-runs 1]
  [--db mysql://root@127.0.0.1:3306/test] [--redis redis://127.0.0.1:6379]`;
const args = parseArgs(
  {
    n: [10000, 100000],
    mix: 'uniform',
    consumer: true,
    floor: true,
    warmup: 10,
    window: 60,
    grace: 30,
    lead: 5,
    'probe-ms': 20,
    batch: 0,
    env: '',
    source: 'auto',
    json: false,
    keep: false,
    'cpu-prof': false,
    'with-peers': false,
    'peer-delayed-n': '1000,10000',
    'peer-schedulers': 1000,
    'peer-duration': 30,
    'peer-runs': 1,
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
if (!MIXES.includes(args.mix)) throw new Error(`unknown --mix '${args.mix}' (known: ${MIXES.join(', ')})`);
/** Progress goes to stderr when --json owns stdout. */
const log = (s) => (args.json ? process.stderr : process.stdout).write(`${s}\n`);
const sleepUntil = (t) => new Promise((r) => setTimeout(r, Math.max(0, t - Date.now())));

/** CPU ticks of the product, the DB/Redis servers, this harness and the whole machine, at one instant. */
function cpuSnapshot(pid, serverPids) {
  const self = process.cpuUsage();
  return {
    t: Date.now(),
    product: cpuTicks(pid),
    machine: machineBusyTicks(),
    mysqld: serverPids.mysqld.reduce((a, p) => a + cpuTicks(p), 0),
    redis: serverPids.redis.reduce((a, p) => a + cpuTicks(p), 0),
    harness: ((self.user + self.system) / 1e6) * CLK_TCK,
  };
}

/** The case in progress, so Ctrl-C (SIGINT/SIGTERM) can stop its scheduler and delete its rows. */
let active = null;
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.once(sig, async () => {
    process.stderr.write(
      `\n${sig}: stopping the scheduler and cleaning up${active ? ` namespace ${active.ns}` : ''}...\n`,
    );
    try {
      if (active?.node) await active.node.stop();
      if (active?.consumer) await active.consumer.stop();
      if (active && !args.keep) await cleanup(active.pool, active.redis, active.ns, active.since - 120_000);
    } finally {
      process.exit(130);
    }
  });
}
process.stdout.on('error', () => {}); // a closed pipe (| head) must not kill the run before cleanup

/** The case's product settings: the servers, its namespace, ROLES=scheduler, then --env. */
function caseEnv(ns) {
  return {
    DB_URL: args.db,
    REDIS_URL: args.redis,
    TICKWHEEL_SECRET_KEY: randomBytes(32).toString('hex'),
    TICKWHEEL_NAMESPACE: ns,
    ROLES: 'scheduler',
    LOG_LEVEL: 'warn',
    PORT: '0',
    HOST: '127.0.0.1',
    NODE_NAME: `bench-${process.pid}`,
    // The stand-in consumer never claims; a reconcile pass would re-push its DISPATCHED rows as lost.
    ...(args.consumer ? { RECONCILE_INTERVAL_MS: '3600000' } : {}),
    ...(args.batch > 0 ? { TRIGGER_BATCH_SIZE: String(args.batch) } : {}),
    ...envPairs(args.env),
  };
}

/** Starts the stand-in executor node of namespace `ns` (or none with --consumer false). */
async function startStandIn(ns, product) {
  if (!args.consumer) return undefined;
  const consumer = await startConsumer({
    redisUrl: args.redis,
    namespace: ns,
    nodeId: `bench-consumer-${process.pid}`,
    handler: BENCH_HANDLER,
    mainJs: product.mainJs,
  });
  active.consumer = consumer;
  log('   stand-in executor node registered (takes ids off its ready list, never claims)');
  return consumer;
}

/** Runs one case (N jobs of --mix) end to end and returns its figures. */
async function runCase(n, product, pool, redis) {
  const ns = `bench-${n >= 1000 ? `${n / 1000}k` : n}-${randomBytes(4).toString('hex')}`;
  const since = Date.now();
  const big = args.mix === 'big';
  active = { ns, since, node: null, pool, redis };
  log(`\n== N=${n.toLocaleString('en-US')} mix ${args.mix} namespace ${ns}`);
  let t = Date.now();
  const grids = await registerJobs(pool, ns, n, args.mix);
  const registerS = (Date.now() - t) / 1000;
  log(`   registered ${n} disabled job definitions in ${registerS.toFixed(1)} s`);
  const env = caseEnv(ns);
  const profDir = `/tmp/tickwheel-bench-prof-${process.pid}-${n}`;
  const nodeArgs = args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [];
  let node;
  let consumer;
  const rss = [];
  let sampler;
  const result = {
    n,
    mix: args.mix,
    mixCounts: big ? mixCounts(args.mix, n) : undefined,
    namespace: ns,
    registerS,
    settings: { ...env, TICKWHEEL_SECRET_KEY: '(random)', DB_URL: args.db },
  };
  try {
    let base;
    if (big) {
      // A big installation's leader starts with every job enabled and fires already due: the stand-in node
      // first (the leader routes staged fires from its first page on), then the jobs, then the leader itself.
      consumer = await startStandIn(ns, product);
      base = Date.now() + args.lead * 1000 + n / 15;
      t = Date.now();
      await enableByGrid(pool, ns, n, base);
      result.enableS = (Date.now() - t) / 1000;
      const over = Date.now() - base;
      log(
        `   enabled in ${result.enableS.toFixed(1)} s, first fires after ${new Date(base).toISOString()}${over > 0 ? ` (overran by ${(over / 1000).toFixed(1)} s: those fires wait for the leader)` : ''}`,
      );
      await sleepUntil(base);
    }
    t = Date.now();
    result.spawnAt = t;
    node = await startProduct(product, env, nodeArgs);
    active.node = node;
    sampler = setInterval(() => rss.push({ t: Date.now(), mb: rssMb(node.pid) }), 1000);
    result.bootS = (Date.now() - t) / 1000;
    result.rssAfterBootMB = rssMb(node.pid);
    log(
      `   scheduler pid ${node.pid} listening after ${result.bootS.toFixed(1)} s (RSS ${result.rssAfterBootMB.toFixed(0)} MB)`,
    );
    if (!big) {
      consumer = await startStandIn(ns, product);
      // Enabling 100k rows takes seconds: leave room for it so the first fires are not already due.
      base = Date.now() + args.lead * 1000 + n / 20;
      t = Date.now();
      await enableJobs(pool, ns, base);
      result.enableS = (Date.now() - t) / 1000;
    }
    const start = Math.ceil(((big ? result.spawnAt : base) + args.warmup * 1000) / 1000) * 1000;
    const end = start + args.window * 1000;
    const slots = expectedSlots(grids, start, end);
    log(
      `   ${big ? '' : `enabled in ${result.enableS.toFixed(1)} s; first fires after ${new Date(base).toISOString()}; `}window ${new Date(start).toISOString()} + ${args.window} s (warm-up ${args.warmup} s)`,
    );
    const probe = new SlotProbe(pool, slots, args['probe-ms']);
    probe.start();
    const servers = { mysqld: pidsByComm(['mariadbd', 'mysqld']), redis: pidsByComm(['redis-server']) };
    await sleepUntil(start);
    const cpu0 = cpuSnapshot(node.pid, servers);
    const counters0 = { ...(await serverCounters(pool, redis)), probe: probe.queries };
    result.loadStart = loadNow();
    await sleepUntil(end);
    const cpu1 = cpuSnapshot(node.pid, servers);
    const counters1 = { ...(await serverCounters(pool, redis)), probe: probe.queries };
    result.loadEnd = loadNow();
    const graceEnd = Date.now() + args.grace * 1000;
    while (Date.now() < graceEnd && (args['probe-ms'] > 0 ? probe.pending.size > 0 : false))
      await sleepUntil(Date.now() + 200);
    await probe.stop();
    clearInterval(sampler);
    result.probeQueries = probe.queries;
    result.rssHwmMB = hwmMb(node.pid);
    t = Date.now();
    result.exitCode = await node.stop();
    result.stopS = (Date.now() - t) / 1000;
    log(`   window done; scheduler stopped in ${result.stopS.toFixed(1)} s (exit ${result.exitCode})`);
    if (args['cpu-prof']) {
      result.cpuProfile = summariseProfile(profDir, start, end, Date.now());
      rmSync(profDir, { recursive: true, force: true });
    }
    if (consumer) {
      await consumer.stop();
      result.consumerDuplicates = consumer.duplicates();
    }
    const { rows, notPending } = await readInstances(pool, ns, start, end);
    Object.assign(
      result,
      analyze({ rows, grids, slots, probeDoneAt: probe.doneAt, windowS: args.window, arrivals: consumer?.arrivals }),
    );
    result.notPending = notPending;
    Object.assign(result, await firstFires(pool, ns, since, result.spawnAt, consumer?.arrivals));
    result.perFire = perTask(counters0, counters1, Math.max(1, result.fires), counters1.probe - counters0.probe);
    const secs = (cpu1.t - cpu0.t) / 1000;
    const cores = (k) => (cpu1[k] - cpu0[k]) / CLK_TCK / secs;
    result.cpuS = (cpu1.product - cpu0.product) / CLK_TCK;
    result.cpuPer1000 = (result.cpuS / Math.max(1, result.fires)) * 1000;
    result.cores = {
      product: cores('product'),
      mysqld: cores('mysqld'),
      redis: cores('redis'),
      harness: cores('harness'),
      machine: cores('machine'),
    };
    result.cores.foreign = Math.max(
      0,
      result.cores.machine - result.cores.product - result.cores.mysqld - result.cores.redis - result.cores.harness,
    );
    const inWin = rss.filter((s) => s.t >= start && s.t < end).map((s) => s.mb);
    result.rss = {
      peakMB: Math.max(...rss.map((s) => s.mb), result.rssAfterBootMB),
      hwmMB: result.rssHwmMB,
      windowPeakMB: Math.max(...inWin),
      windowMedianMB: distribution(inWin).p50,
    };
    result.productLogLines = node.stats.lines;
    result.productWarnLines = node.stats.warnLines;
    result.productTail = node.tail.slice(-3);
    result.window = { start, end, warmupS: args.warmup, windowS: args.window };
    return result;
  } finally {
    clearInterval(sampler);
    if (node) await node.stop();
    if (consumer) await consumer.stop();
    if (args.keep) log(`   --keep: left namespace ${ns} in place`);
    else {
      const c = await cleanup(pool, redis, ns, since - 120_000);
      log(`   cleaned up: ${c.instances} instances, ${c.jobs} job definitions, ${c.keys} Redis keys`);
    }
    active = null;
  }
}

/** Runs bench/peers-trigger.sh (BullMQ baselines) and returns its summary JSON. */
async function runPeers() {
  return runPeerScript(
    REPO,
    'bench/peers-trigger.sh',
    [
      '--delayed-n',
      args['peer-delayed-n'],
      '--schedulers',
      String(args['peer-schedulers']),
      '--duration',
      String(args['peer-duration']),
      '--runs',
      String(args['peer-runs']),
    ],
    { toStderr: args.json, log },
  );
}

async function main() {
  const product = prepareProduct(REPO, args.source, log);
  log(`product: ${product.source}; node ${process.version}; ${loadNow().uptime}`);
  const pool = mysql.createPool({ uri: args.db, connectionLimit: 4, supportBigNumbers: true });
  const redis = new Redis(args.redis, { lazyConnect: false, maxRetriesPerRequest: 2 });
  const report = {
    startedAt: new Date().toISOString(),
    product: product.source,
    node: process.version,
    args,
    results: [],
  };
  try {
    report.redisHz = Number((await redis.config('GET', 'hz'))[1]);
    if (args.floor) {
      const batch = args.batch > 0 ? args.batch : 500;
      const sizes = [...new Set([...args.n.map((n) => Math.min(batch, Math.ceil(n / 60))), batch])].sort(
        (a, b) => a - b,
      );
      log(`DB floor: timing the page SQL with bare mysql2 for page sizes ${sizes.join(', ')}...`);
      report.dbFloor = await measureDbFloor(pool, sizes);
    }
    for (const n of args.n) report.results.push(await runCase(n, product, pool, redis));
  } finally {
    await pool.end();
    redis.disconnect();
  }
  if (args['with-peers']) report.peers = await runPeers();
  report.finishedAt = new Date().toISOString();
  report.loadAtEnd = loadNow().uptime;
  printResults(report, log);
  printScale(report, log);
  if (report.dbFloor) printFloor(report, log);
  printProfiles(report, log);
  if (report.peers) printPeers(report, log);
  if (args.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

main().catch((err) => {
  process.stderr.write(`bench:trigger failed: ${err.stack ?? err.message}\n`);
  process.exit(1);
});
