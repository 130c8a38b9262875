// The shipped Node client's CPU per request (issue 28): TickwheelClient and the typed client of git revision `--a`
// (default main) against the working tree's, and the bench's own lean client (`cheap`, bench/lib/submit.mjs) as the
// floor, each run in a process of its own against one stand-in API (bench/lib/stub-api.mjs) answering at once, the
// variants interleaved A B A B in each round. Figures: the client process's CPU µs per request (median of rounds).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { CLK_TCK, cpuTicks, loadNow, machineBusyTicks } from './lib/proc.mjs';
import { fmt, parseArgs, printTable, quantile } from './lib/stats.mjs';

const HELP = `npm run bench:client -- [--n 5000] [--in-flight 50] [--rounds 3] [--ops submit,get,batch] [--batch-size 100]
  [--clients tw,typed,cheap] [--a main] [--json]`;
const args = parseArgs(
  {
    n: 5000,
    'in-flight': 50,
    rounds: 3,
    ops: 'submit,get,batch',
    'batch-size': 100,
    clients: 'tw,typed,cheap',
    a: 'main',
    json: false,
    help: false,
  },
  process.argv.slice(2),
);
if (args.help) {
  console.log(HELP);
  process.exit(0);
}
const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const BUILD = join(process.env.BENCH_BUILD_DIR ?? '/tmp/tickwheel-bench-build', `client-${process.pid}`);
const log = (s) => (args.json ? process.stderr : process.stdout).write(`${s}\n`);

/** Bundles `src/client/index.ts` under `root` to `<BUILD>/<name>/client.mjs` (packages stay imports). */
async function bundle(root, name) {
  const dir = join(BUILD, name);
  mkdirSync(dir, { recursive: true });
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  const outfile = join(dir, 'client.mjs');
  const entry = join(root, 'src/client/index.ts');
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile });
  return outfile;
}

/** The source of git revision `rev` (its src/) extracted under BUILD. @throws Error when git cannot give it. */
function checkout(rev) {
  const dir = join(BUILD, 'src-a');
  mkdirSync(dir, { recursive: true });
  const r = spawnSync('bash', ['-c', `git archive '${rev}' src | tar -x -C '${dir}'`], { cwd: REPO, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git archive ${rev}: ${r.stderr}`);
  return dir;
}

/** Starts the stand-in API; resolves with its URL, pid and stop(). */
async function startStub() {
  const child = spawn(process.execPath, [join(REPO, 'bench/lib/stub-api.mjs')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(Number(String(d).trim()))));
  return { url: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => child.kill('SIGTERM') };
}

/** One measurement in a fresh process: the client's CPU µs per request and requests/s, plus the cores around it. */
function measure(file, kind, url, op, stubPid) {
  const before = { t: Date.now(), machine: machineBusyTicks(), stub: cpuTicks(stubPid) };
  const r = spawnSync(
    process.execPath,
    [join(REPO, 'bench/lib/client-run.mjs'), file, kind, url, op, args.n, args['in-flight'], args['batch-size']],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`${kind} ${op}: ${r.stderr}`);
  const out = JSON.parse(r.stdout.trim().split('\n').pop());
  const secs = (Date.now() - before.t) / 1000;
  const cores = (ticks) => ticks / CLK_TCK / secs;
  const stub = cores(cpuTicks(stubPid) - before.stub);
  const client = (out.cpuUsPerRequest * args.n) / 1e6 / secs;
  return { ...out, foreign: Math.max(0, cores(machineBusyTicks() - before.machine) - stub - client) };
}

const median = (xs) =>
  quantile(
    [...xs].sort((x, y) => x - y),
    0.5,
  );
const load0 = loadNow();
rmSync(BUILD, { recursive: true, force: true });
const rev = spawnSync('git', ['rev-parse', '--short', args.a], { cwd: REPO, encoding: 'utf8' }).stdout.trim();
const files = { a: await bundle(checkout(args.a), 'a'), b: await bundle(REPO, 'b') };
const stub = await startStub();
const variants = [];
for (const op of args.ops.split(',')) {
  for (const kind of args.clients.split(',')) {
    if (kind === 'cheap') {
      if (op === 'submit') variants.push({ op, kind, side: '-', file: '' });
      continue;
    }
    variants.push({ op, kind, side: 'a', file: files.a }, { op, kind, side: 'b', file: files.b });
  }
}
const runs = new Map(variants.map((v) => [v, []]));
try {
  for (let round = 1; round <= args.rounds; round++) {
    for (const v of variants) {
      const r = measure(v.file, v.kind, stub.url, v.op, stub.pid);
      runs.get(v).push(r);
      log(`round ${round}: ${v.op} ${v.kind} ${v.side}: ${fmt(r.cpuUsPerRequest)} µs/req, ${fmt(r.perSec)}/s`);
    }
  }
} finally {
  stub.stop();
  rmSync(BUILD, { recursive: true, force: true });
}
const rows = variants.map((v) => {
  const rs = runs.get(v);
  const us = rs.map((r) => r.cpuUsPerRequest);
  return {
    op: v.op,
    client: v.kind,
    source: v.side === 'a' ? `${args.a} (${rev})` : v.side === 'b' ? 'working tree' : 'bench/lib/submit.mjs',
    'CPU µs/req (median)': fmt(median(us)),
    'min..max': `${fmt(Math.min(...us))}..${fmt(Math.max(...us))}`,
    'req/s (median)': fmt(median(rs.map((r) => r.perSec))),
    'foreign cores': fmt(median(rs.map((r) => r.foreign)), 2),
  };
});
const load1 = loadNow();
if (args.json) process.stdout.write(`${JSON.stringify({ args, rev, load: [load0, load1], rows }, null, 2)}\n`);
log(
  `\nclient CPU per request, ${args.rounds} rounds of n=${args.n}, ${args['in-flight']} in flight (batch: ${args['batch-size']} tasks)`,
);
printTable(rows, undefined, log);
log(`load before: ${load0.uptime}\nload after:  ${load1.uptime}`);
