// Source budget check (part of `npm run lint`): for every module under src/ (src/modules/<m>, src/common,
// src/config, src/infra, src/bin, src/client, and the files at src/'s root), comment lines must be at most 15 %
// of its non-spec .ts lines and no line may be longer than 120 characters. Prints one line of figures per
// module and exits 1 when any module is over either limit. Generated files (GENERATED) are not counted.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAX_COMMENT_SHARE = 0.15;
const MAX_LINE = 120;
const COMMENT = /^\s*(\/\/|\/\*|\*)/;
// Written by a generator from the spec (scripts/openapi-types.mjs): its comments are the spec's descriptions.
const GENERATED = new Set(['src/client/openapi-types.ts']);

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
  ...['common', 'config', 'infra', 'bin', 'client']
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
    const text = readFileSync(f, 'utf8').replace(/\n$/, '').split('\n');
    lines += text.length;
    comments += text.filter((l) => COMMENT.test(l)).length;
    long += text.filter((l) => l.length > MAX_LINE).length;
    if (text.length > largest[1]) largest = [relative(ROOT, f), text.length];
  }
  const share = lines === 0 ? 0 : comments / lines;
  const over = share > MAX_COMMENT_SHARE || long > 0;
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
if (failed) {
  console.error(
    `check-source: a module has more than ${MAX_COMMENT_SHARE * 100} % comment lines or a line over ${MAX_LINE}`,
  );
  process.exit(1);
}
