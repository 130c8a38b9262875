// The build of dist/ that never leaves it missing or empty (issue 14), and when it is stale. Shared by
// scripts/build.mjs (`npm run build`), scripts/ensure-built.mjs (`npm start`, `npm run tw`, chaos) and the e2e
// global setup.
//
// How: tsc compiles into a fresh directory beside dist/ (same file system), the *.lua assets are copied there,
// then each output file whose bytes changed is moved into dist/ by rename(2), which replaces a file atomically:
// a process starting meanwhile reads every file whole, old or new (a start in the ~0.1 s of moves may mix old and
// new modules; nothing is ever absent). Files of the old build that the new one lacks go last, then the stamp.
// Unchanged files keep their mtime, so staleness is judged by the stamp dist/.build-stamp, written last but dated
// when the build began: a source saved while tsc ran may be missing from dist/, and must leave it stale.
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { createRequire } from 'node:module';

export const DIST = 'dist';
export const STAMP = join(DIST, '.build-stamp');
/** What the build reads: a change to any of these (newer than the stamp) makes dist/ stale. */
export const SOURCES = ['src', 'examples', 'console', 'ormconfig.ts', 'nest-cli.json', 'package.json'];

/** Newest mtime (ms) under `path` (file or directory; 0 when absent); `filter` picks files by name. */
export function newest(path, filter = () => true) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return filter(path) ? st.mtimeMs : 0;
  let m = 0;
  for (const e of readdirSync(path)) m = Math.max(m, newest(join(path, e), filter));
  return m;
}

/** Newest mtime of every build input: SOURCES and every tsconfig*.json at the root. */
export function newestSource() {
  const tsconfigs = readdirSync('.').filter((f) => /^tsconfig.*\.json$/.test(f));
  return Math.max(...SOURCES.map((p) => newest(p)), ...tsconfigs.map((p) => newest(p)));
}

/** True when dist/ was never built by build() (no stamp) or an input is newer than its stamp. */
export function isStale() {
  return !existsSync(STAMP) || !existsSync(join(DIST, 'src/main.js')) || statSync(STAMP).mtimeMs < newestSource();
}

function files(dir, base = dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) files(p, base, out);
    else out.push(relative(base, p));
  }
  return out;
}

function sameBytes(a, b) {
  if (!existsSync(b) || statSync(a).size !== statSync(b).size) return false;
  return readFileSync(a).equals(readFileSync(b));
}

function pruneEmptyDirs(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory()) pruneEmptyDirs(join(dir, e.name));
  if (dir !== DIST && readdirSync(dir).length === 0) rmdirSync(dir);
}

/**
 * Bundles the console (console/src, Preact + uPlot, docs/console.md) with esbuild into `out`/assets/console.{js,css}
 * (ESM, minified, the libraries' licence comments kept at the end) beside a copy of console/index.html. The API's
 * types it imports are types only: nothing of src/ is bundled.
 */
export function bundleConsole(out) {
  // Loaded here, not at the top: `npm start` imports this file to judge staleness on installs without devDependencies.
  const { buildSync } = createRequire(import.meta.url)('esbuild');
  buildSync({
    entryPoints: { console: 'console/src/main.tsx' },
    bundle: true,
    format: 'esm',
    minify: true,
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: join(out, 'assets'),
    legalComments: 'eof',
    logLevel: 'warning',
  });
  copyFileSync('console/index.html', join(out, 'index.html'));
}

/**
 * Compiles src/, examples/ and ormconfig.ts (tsconfig.build.json) and swaps the result into dist/ file by file.
 * Compiler output goes to stderr (stdout of `npm start` carries JSON log lines only). Throws when tsc fails;
 * dist/ is then untouched.
 */
export function build() {
  const began = new Date();
  const tmp = `.dist-build-${process.pid}-${began.getTime()}`;
  try {
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json', '--outDir', tmp], {
      stdio: ['ignore', 2, 2],
    });
    for (const lua of files('src').filter((f) => f.endsWith('.lua'))) {
      mkdirSync(dirname(join(tmp, 'src', lua)), { recursive: true });
      copyFileSync(join('src', lua), join(tmp, 'src', lua));
    }
    bundleConsole(join(tmp, 'console'));
    const made = files(tmp);
    for (const f of made) {
      const target = join(DIST, f);
      if (sameBytes(join(tmp, f), target)) continue;
      mkdirSync(dirname(target), { recursive: true });
      renameSync(join(tmp, f), target);
    }
    const keep = new Set(made);
    for (const f of files(DIST)) if (!keep.has(f) && join(DIST, f) !== STAMP) unlinkSync(join(DIST, f));
    pruneEmptyDirs(DIST);
    writeFileSync(STAMP, `${began.toISOString()}\n`);
    utimesSync(STAMP, began, began);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
