// Build a snapshot of the product, spawn it as a child process, and read /proc figures
// (RSS, CPU ticks) of it, of the database servers and of the whole machine.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** USER_HZ: /proc CPU figures are in these ticks per second (100 on Linux). */
export const CLK_TCK = 100;
/** Where snapshots are built; BENCH_BUILD_DIR gives a sitting its own (benches of other worktrees may run at once). */
const BUILD_ROOT = process.env.BENCH_BUILD_DIR ?? '/tmp/tickwheel-bench-build';
const SNAPSHOT_FILES = ['src', 'examples', 'ormconfig.ts', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

function git(repo, args) {
  const r = spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : '';
}

function copyLua(fromDir, toDir) {
  for (const e of readdirSync(fromDir, { withFileTypes: true })) {
    const p = join(fromDir, e.name);
    if (e.isDirectory()) copyLua(p, join(toDir, e.name));
    else if (e.name.endsWith('.lua')) {
      mkdirSync(toDir, { recursive: true });
      cpSync(p, join(toDir, e.name));
    }
  }
}

/** Copies the working tree (or git HEAD) to a private dir and compiles it there with tsc; never touches dist/. */
function buildSnapshot(repo, which) {
  const dir = join(BUILD_ROOT, which);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  if (which === 'tree') {
    for (const f of SNAPSHOT_FILES)
      if (existsSync(join(repo, f))) cpSync(join(repo, f), join(dir, f), { recursive: true });
  } else {
    const r = spawnSync('bash', ['-c', `git archive HEAD ${SNAPSHOT_FILES.join(' ')} | tar -x -C '${dir}'`], {
      cwd: repo,
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`git archive HEAD failed: ${r.stderr}`);
  }
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'));
  const tsc = spawnSync(
    process.execPath,
    [join(repo, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', 'dist'],
    {
      cwd: dir,
      encoding: 'utf8',
    },
  );
  copyLua(join(dir, 'src'), join(dir, 'dist', 'src'));
  writeFileSync(join(dir, 'dist', 'package.json'), '{"type":"module"}\n');
  return {
    ok: tsc.status === 0,
    errors: (tsc.stdout + tsc.stderr).trim(),
    mainJs: join(dir, 'dist/src/main.js'),
    cwd: dir,
  };
}

/**
 * Prepares the product to run. `source`: `tree` compiles the working tree, `head` compiles git HEAD,
 * `dist` uses the repo's existing dist/ as is, `auto` tries `tree` and falls back to `head` (with a warning)
 * when the tree does not compile (other engineers may be mid-edit).
 * @param {string} repo repository root
 * @param {'auto'|'tree'|'head'|'dist'} source
 * @param {(s: string) => void} log progress/warning sink
 * @returns {{mainJs: string, cwd: string, source: string, rev: string, dirty: boolean}}
 * @throws Error when the chosen source does not compile or dist/ is missing
 */
export function prepareProduct(repo, source, log) {
  const rev = git(repo, ['rev-parse', '--short', 'HEAD']);
  const dirty = git(repo, ['status', '--porcelain', '--', 'src']).length > 0;
  if (source === 'dist') {
    const mainJs = join(repo, 'dist/src/main.js');
    if (!existsSync(mainJs)) throw new Error('dist/src/main.js missing: run npm run build or use --source tree');
    return { mainJs, cwd: repo, source: 'dist (prebuilt)', rev, dirty };
  }
  const first = source === 'head' ? 'head' : 'tree';
  log(`building ${first === 'tree' ? 'the working tree' : `git HEAD ${rev}`} into ${BUILD_ROOT}/${first} (tsc)...`);
  let b = buildSnapshot(repo, first);
  if (b.ok)
    return {
      mainJs: b.mainJs,
      cwd: b.cwd,
      source:
        first === 'tree' ? `working tree (HEAD ${rev}${dirty ? ' + uncommitted src changes' : ''})` : `git HEAD ${rev}`,
      rev,
      dirty,
    };
  if (source !== 'auto') throw new Error(`tsc failed on ${first}:\n${b.errors}`);
  log(
    `WARNING: the working tree does not compile (someone is mid-edit):\n${b.errors.split('\n').slice(0, 5).join('\n')}\nWARNING: measuring git HEAD ${rev} instead.`,
  );
  b = buildSnapshot(repo, 'head');
  if (!b.ok) throw new Error(`tsc failed on HEAD too:\n${b.errors}`);
  return { mainJs: b.mainJs, cwd: b.cwd, source: `git HEAD ${rev} (working tree did not compile)`, rev, dirty };
}

/**
 * Spawns `node mainJs` with exactly the given settings (plus PATH/HOME) and waits for its
 * "listening" line. Output is consumed (counted; the last lines kept for errors).
 * @param {{mainJs: string, cwd: string}} product
 * @param {Record<string,string>} env
 * @param {string[]} [nodeArgs] extra node flags (e.g. --cpu-prof, which NODE_OPTIONS refuses)
 * @param {number} [timeoutMs]
 * @returns {Promise<{pid: number, stop: () => Promise<number|null>, tail: string[], stats: {lines: number, warnLines: number}}>}
 * @throws Error when the process exits or does not listen within timeoutMs
 */
export async function startProduct(product, env, nodeArgs = [], timeoutMs = 60_000) {
  const child = spawn(process.execPath, [...nodeArgs, product.mainJs], {
    cwd: product.cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tail = [];
  const stats = { lines: 0, warnLines: 0 };
  let onListen;
  const listening = new Promise((resolve) => (onListen = resolve));
  const exited = new Promise((resolve) => child.on('exit', (code, sig) => resolve(code ?? sig)));
  const take = (buf) => {
    for (const line of buf.toString().split('\n')) {
      if (!line) continue;
      stats.lines++;
      if (/"level":(40|50|"warn"|"error")|WARN/.test(line)) stats.warnLines++;
      tail.push(line.slice(0, 400));
      if (tail.length > 20) tail.shift();
      if (/ listening on /.test(line)) onListen();
    }
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  let timer;
  const outcome = await Promise.race([
    listening.then(() => 'ok'),
    exited.then((c) => `exited (${c})`),
    new Promise((r) => (timer = setTimeout(() => r('timeout'), timeoutMs))),
  ]);
  clearTimeout(timer);
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const code = await exited;
    clearTimeout(t);
    return code;
  };
  if (outcome !== 'ok') {
    await stop();
    throw new Error(`product did not start: ${outcome}\n${tail.join('\n')}`);
  }
  return { pid: child.pid, stop, tail, stats };
}

/**
 * utime+stime of a process, in ticks (see CLK_TCK); NaN when it is gone.
 * @param {number} pid
 * @returns {number}
 */
export function cpuTicks(pid) {
  try {
    const st = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]);
  } catch {
    return NaN;
  }
}

/**
 * Resident set size (VmRSS) of a process in MB; NaN when it is gone.
 * @param {number} pid
 * @returns {number}
 */
export function rssMb(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/**
 * Peak resident set size (VmHWM, the kernel's high-water mark since the process started) in MB; NaN when it is gone.
 * Unlike sampling VmRSS it also sees a peak between samples or before the process listened.
 * @param {number} pid
 * @returns {number}
 */
export function hwmMb(pid) {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/**
 * Pids of processes whose command name is in `names` (e.g. the MariaDB and Redis servers).
 * @param {string[]} names
 * @returns {number[]}
 */
export function pidsByComm(names) {
  const out = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (names.includes(readFileSync(`/proc/${d}/comm`, 'utf8').trim())) out.push(Number(d));
    } catch {
      /* gone */
    }
  }
  return out;
}

/**
 * Machine-wide busy ticks (all CPUs, excluding idle, iowait and steal) from /proc/stat.
 * @returns {number}
 */
export function machineBusyTicks() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return f.slice(0, 8).reduce((a, b) => a + b, 0) - f[3] - (f[4] || 0) - (f[7] || 0);
}

/**
 * The 1-minute load average and the `uptime` line, for the report.
 * @returns {{load1: number, uptime: string}}
 */
export function loadNow() {
  const load1 = Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
  const r = spawnSync('uptime', [], { encoding: 'utf8' });
  return { load1, uptime: (r.stdout ?? '').trim() };
}

/**
 * A TCP port that was free a moment ago on `host` (the OS picks it; the caller binds it soon after).
 * @param {string} [host]
 * @returns {Promise<number>}
 */
export async function freePort(host = '127.0.0.1') {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Pids of the MariaDB/MySQL and Redis servers on this machine (for CPU accounting).
 * @returns {{mysqld: number[], redis: number[]}}
 */
export function serverPids() {
  return { mysqld: pidsByComm(['mariadbd', 'mysqld']), redis: pidsByComm(['redis-server']) };
}

/**
 * Runs one of bench/peers-*.sh with `args` plus `--out <tmp file>`, its progress on stderr when `toStderr`
 * (the caller's --json owns stdout), and returns the summary JSON it wrote.
 * @param {string} repo repository root
 * @param {string} script e.g. 'bench/peers-trigger.sh'
 * @param {string[]} args
 * @param {{toStderr: boolean, log: (s: string) => void}} o
 * @returns {Promise<Record<string, any>>}
 * @throws Error when the script exits non-zero
 */
export async function runPeerScript(repo, script, args, o) {
  const out = `/tmp/tickwheel-peers-${process.pid}-${Date.now()}.json`;
  const cmd = [script, ...args, '--out', out];
  o.log(`\n== peers: bash ${cmd.join(' ')}`);
  const child = spawn('bash', cmd, {
    cwd: repo,
    stdio: ['ignore', o.toStderr ? process.stderr : 'inherit', 'inherit'],
  });
  const code = await new Promise((r) => child.on('exit', r));
  if (code !== 0) throw new Error(`${script} exited with ${code}`);
  const peers = JSON.parse(readFileSync(out, 'utf8'));
  rmSync(out, { force: true });
  return peers;
}
