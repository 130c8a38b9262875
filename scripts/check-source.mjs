// Source budget check (part of `npm run lint`): for every module under src/ (src/modules/<m>, src/common,
// src/config, src/infra, src/bin, src/client, src/executor, src/testing, src/worker, and the files at src/'s root),
// comment lines must be at most 15 % of its non-spec .ts lines (40 % for the package's handler-facing modules,
// PUBLIC_CONTRACT: their doc comments are what a handler author reads in the editor, the reference of the package) and no line may be longer than 120 characters. Prints one line of figures per
// module. Then no tracked hand-written file under src/, test/, scripts/, bench/ or examples/ may be longer than
// 400 lines; one line per offender. Exits 1 when anything is over.
// Generated files (GENERATED) are not counted.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAX_COMMENT_SHARE = 0.15;
const MAX_LINE = 120;
/** Modules whose exported types a handler author imports from the package (package.json "exports"). */
const PUBLIC_CONTRACT = new Map([
  ['src/modules/handler', 0.4],
  ['src/executor', 0.4],
  ['src/testing', 0.4],
  ['src/worker', 0.4],
]);
const COMMENT = /^\s*(\/\/|\/\*|\*)/;
// Written by a generator from the spec (scripts/openapi-types.mjs): its comments are the spec's descriptions.
const GENERATED = new Set(['src/client/openapi-types.ts']);
const MAX_FILE_LINES = 400;
const BUDGET_DIRS = ['src', 'test', 'scripts', 'bench', 'examples', 'console'];
const BUDGET_FILES = /\.(ts|tsx|mjs|js|cjs|lua)$/;

/** The lines of repository file `file` (a last newline ends the last line, it does not start one). */
const linesOf = (file) => readFileSync(join(ROOT, file), 'utf8').replace(/\n$/, '').split('\n');

/** Non-spec .ts files under `dir` (recursively, or only its own files when `deep` is false). */
function sources(dir, deep = true) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (deep) out.push(...sources(p));
    } else if (e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') && !GENERATED.has(relative(ROOT, p))) out.push(p);
  }
  return out;
}

const src = join(ROOT, 'src');
const isDir = (p) => statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
const units = [
  ...readdirSync(join(src, 'modules')).map((m) => [`src/modules/${m}`, sources(join(src, 'modules', m))]),
  ...['common', 'config', 'infra', 'bin', 'client', 'executor', 'testing', 'worker']
    .filter((d) => isDir(join(src, d)))
    .map((d) => [`src/${d}`, sources(join(src, d))]),
  ['src/*.ts', sources(src, false)],
].filter(([, files]) => files.length > 0);

let failed = false;
for (const [name, files] of units) {
  let lines = 0;
  let comments = 0;
  let long = 0;
  let largest = ['', 0];
  for (const f of files) {
    const text = linesOf(relative(ROOT, f));
    lines += text.length;
    comments += text.filter((l) => COMMENT.test(l)).length;
    long += text.filter((l) => l.length > MAX_LINE).length;
    if (text.length > largest[1]) largest = [relative(ROOT, f), text.length];
  }
  const share = lines === 0 ? 0 : comments / lines;
  const over = share > (PUBLIC_CONTRACT.get(name) ?? MAX_COMMENT_SHARE) || long > 0;
  failed ||= over;
  const pct = `${(100 * share).toFixed(2)}%`.padStart(7);
  const figures = [
    `files=${String(files.length).padEnd(4)}`,
    `lines=${String(lines).padEnd(5)}`,
    `comments=${pct}`,
    `over${MAX_LINE}=${String(long).padEnd(4)}`,
    `largest=${largest[0]} (${largest[1]})`,
  ];
  console.log(`${over ? 'FAIL' : 'ok  '} ${name.padEnd(26)} ${figures.join(' ')}`);
}

/** Why `file`, `lines` long, breaks the line budget, or null. */
function overBudget(lines) {
  return lines > MAX_FILE_LINES ? `${lines} lines, over ${MAX_FILE_LINES}` : null;
}

/** The hand-written files of BUDGET_DIRS that git tracks, and one `file: why` line per file over budget. */
function lineBudget() {
  const tracked = execFileSync('git', ['ls-files', '-z', '--', ...BUDGET_DIRS], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((f) => BUDGET_FILES.test(f) && !GENERATED.has(f));
  const offenders = [];
  for (const file of tracked) {
    const why = overBudget(linesOf(file).length);
    if (why) offenders.push(`${file}: ${why}`);
  }
  return { tracked, offenders };
}

const budget = lineBudget();
for (const o of budget.offenders) console.log(`FAIL ${o}`);
console.log(
  budget.offenders.length > 0
    ? `FAIL line budget (${budget.tracked.length} files): ${budget.offenders.length} problem(s) above`
    : `ok   line budget: ${budget.tracked.length} files, none over ${MAX_FILE_LINES} lines`,
);

if (failed || budget.offenders.length > 0) {
  console.error(
    `check-source: a module has more than its share of comment lines (${MAX_COMMENT_SHARE * 100} %, or 40 % for a public contract) or a line over ${MAX_LINE}, ` +
      `or a file is over ${MAX_FILE_LINES} lines`,
  );
  process.exit(1);
}
