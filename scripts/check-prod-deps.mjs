// Release check: production dependencies alone start the product, as the image's runtime stage has them
// (docs/deploy.md "The image"). Copies package.json, package-lock.json and dist/ into a temporary directory,
// runs `npm ci --omit=dev` there (install scripts on: better-sqlite3's native addon), imports every package
// dist/ imports (and the drivers loaded by name) from there, starts `node dist/src/main.js` standalone (no DB_URL:
// SQLite in a temporary DATA_DIR) until /health/ready answers 200, then sends SIGTERM and expects a clean exit.
//
//   npm run build && node scripts/check-prod-deps.mjs [--keep] [--json] [--boot-timeout-s 60]
//
// Prints one line per step with its time, and exits 1 naming the first step that failed.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name, dflt) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : dflt);
const BOOT_TIMEOUT_MS = option('--boot-timeout-s', 60) * 1000;
const NPM_ARGS = ['ci', '--omit=dev', '--ignore-scripts=false', '--no-audit', '--no-fund'];
// The product's settings a developer's shell may carry: only what this check sets may count.
const SETTING = /^(PORT|HOST|DB_URL|REDIS_URL|DATA_DIR|ROLES|NODE_NAME|LOG_LEVEL|NODE_PATH|TICKWHEEL_\w+|\w+_MS)$/;

const steps = [];
const log = (line) => process.stderr.write(`[check-prod-deps] ${line}\n`);

/** Runs `fn`, records its duration as step `name`; a thrown error ends the check naming the step. */
async function step(name, fn) {
  const t0 = performance.now();
  try {
    const detail = await fn();
    const ms = Math.round(performance.now() - t0);
    steps.push({ name, ms, ok: true, detail });
    log(`${name}: ok in ${(ms / 1000).toFixed(1)} s${detail ? ` (${detail})` : ''}`);
  } catch (err) {
    steps.push({ name, ms: Math.round(performance.now() - t0), ok: false, detail: err.message });
    throw Object.assign(err, { step: name });
  }
}

// Import and re-export declarations as tsc emits them (no quote or `;` between the keyword and `from`).
const IMPORT = /^\s*(?:import|export)\s[^'";]*?\bfrom\s*['"]([^'"]+)['"]/gm;
const SIDE_EFFECT = /^\s*import\s*['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

// Packages loaded by name at run time, never imported by dist/: TypeORM's drivers, Nest's HTTP platform, the
// Redis client (through nestjs-redis). The standalone start below loads only better-sqlite3 of these.
const LOADED_BY_NAME = ['mysql2', 'better-sqlite3', '@nestjs/platform-express', 'ioredis'];

/** Bare package names that the .js files under `dir` import (static, dynamic and side-effect imports). */
function importedPackages(dir) {
  const names = new Set();
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || !e.name.endsWith('.js')) continue;
    const text = readFileSync(join(e.parentPath ?? e.path, e.name), 'utf8');
    for (const [, spec] of [...text.matchAll(IMPORT), ...text.matchAll(SIDE_EFFECT), ...text.matchAll(DYNAMIC)]) {
      if (spec.startsWith('.') || isBuiltin(spec)) continue;
      const parts = spec.split('/');
      names.add(spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
    }
  }
  return [...names].sort();
}

/** A parent directory's node_modules would hide a missing dependency (Node looks up the tree). */
function shadowingNodeModules(dir) {
  const found = [];
  for (let d = dirname(dir); ; d = dirname(d)) {
    if (existsSync(join(d, 'node_modules'))) found.push(join(d, 'node_modules'));
    if (dirname(d) === d) return found;
  }
}

function cleanEnv(extra) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !SETTING.test(k)) env[k] = v;
  return { ...env, ...extra };
}

async function waitReady(child, output, deadline) {
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited early:\n${output()}`);
    const url = /listening on (http:\/\/[^\s"]+)/.exec(output())?.[1];
    if (url) {
      const status = await fetch(`${url}/health/ready`, { signal: AbortSignal.timeout(2000) }).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) return url;
    }
    if (performance.now() > deadline) throw new Error(`not ready within ${BOOT_TIMEOUT_MS} ms:\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function main() {
  const dist = join(ROOT, 'dist');
  if (!existsSync(join(dist, 'src/main.js'))) throw new Error('dist/src/main.js is missing: run `npm run build` first');
  const dir = mkdtempSync(join(tmpdir(), 'tw-prod-deps-'));
  let child;
  try {
    await step('copy', () => {
      for (const f of ['package.json', 'package-lock.json']) cpSync(join(ROOT, f), join(dir, f));
      cpSync(dist, join(dir, 'dist'), { recursive: true });
      const shadows = shadowingNodeModules(dir);
      if (shadows.length) throw new Error(`a node_modules above ${dir} would hide missing packages: ${shadows}`);
      return dir;
    });
    await step(`npm ${NPM_ARGS.join(' ')}`, () => {
      const r = spawnSync('npm', NPM_ARGS, {
        cwd: dir,
        env: cleanEnv({ NODE_ENV: 'production', SCARF_ANALYTICS: 'false' }),
        encoding: 'utf8',
      });
      if (r.status !== 0) throw new Error(`npm ci exited ${r.status}:\n${r.stdout}${r.stderr}`);
      // The lock marks packages only development needs `dev`: none of them may be on disk.
      const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
      const dev = Object.entries(lock.packages).filter(([p, e]) => p && e.dev && existsSync(join(dir, p)));
      if (dev.length) throw new Error(`development-only packages installed: ${dev.map(([p]) => p).join(', ')}`);
      return /added \d+ packages?/.exec(r.stdout)?.[0] ?? r.stdout.trim().split('\n').at(-1);
    });
    await step('import every package dist/ imports', () => {
      // 'tickwheel': the examples import the package's own entries (self-reference), not a dependency
      const all = [...new Set([...importedPackages(join(dir, 'dist')), ...LOADED_BY_NAME])];
      const names = all.filter((n) => n !== 'tickwheel').sort();
      const probe = join(dir, 'import-probe.mjs');
      const lines = [
        `const bad = [];`,
        `for (const n of ${JSON.stringify(names)}) {`,
        `  try { await import(n); } catch (e) { bad.push(n + ': ' + (e.code ?? e.message)); }`,
        `}`,
        `if (bad.length) { console.log(bad.join('\\n')); process.exit(1); }`,
      ];
      writeFileSync(probe, lines.join('\n') + '\n');
      const r = spawnSync(process.execPath, [probe], { cwd: dir, env: cleanEnv({}), encoding: 'utf8' });
      rmSync(probe);
      if (r.status !== 0) throw new Error(`not importable with production dependencies:\n${r.stdout}${r.stderr}`);
      return `${names.length} packages`;
    });
    let url;
    let out = '';
    await step('start standalone until /health/ready is 200', async () => {
      const settings = { DATA_DIR: join(dir, 'data'), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
      child = spawn(process.execPath, ['dist/src/main.js'], {
        cwd: dir,
        env: cleanEnv({ ...settings, NODE_ENV: 'production' }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const keep = (c) => (out = (out + c.toString()).slice(-20_000));
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      url = await waitReady(child, () => out, performance.now() + BOOT_TIMEOUT_MS);
      return url;
    });
    await step('SIGTERM and a clean exit', async () => {
      const exited = new Promise((r) => child.on('exit', (code, signal) => r({ code, signal })));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const { code, signal } = await exited;
      clearTimeout(timer);
      // Nest's shutdown hooks close the app, then re-raise the signal.
      if (!(code === 0 || signal === 'SIGTERM')) throw new Error(`ended with code ${code}, signal ${signal}:\n${out}`);
      if (/"level":\s*[56]0\b/.test(out)) throw new Error(`logged an error:\n${out}`); // pino: 50 error, 60 fatal
      return signal ? `by ${signal}` : `code ${code}`;
    });
  } finally {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    if (flag('--keep')) log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

const t0 = performance.now();
main().then(
  () => finish(0),
  (err) => {
    log(`FAILED at "${err.step ?? 'setup'}": ${err.message}`);
    finish(1);
  },
);

function finish(code) {
  const totalMs = Math.round(performance.now() - t0);
  if (flag('--json')) process.stdout.write(JSON.stringify({ ok: code === 0, totalMs, steps }, null, 2) + '\n');
  else log(`${code === 0 ? 'passed' : 'failed'} in ${(totalMs / 1000).toFixed(1)} s`);
  process.exitCode = code;
}
