// Checks docs/architecture.md "Modules" against the code: the "uses" column of the modules table against the
// modules each module's non-spec files import (module-graph.mjs), and the module tree block against the files of
// src/ (the block's own first lines state its convention). Each problem is one line naming the row, entry or file.
//
//   node scripts/lint/architecture-doc.mjs           prints the problems; exit 1 when there is one
//   node scripts/lint/architecture-doc.mjs --print   prints the "uses" of every module and the files the tree lacks
//
// test/cases/architecture-doc.spec.ts runs the same checks.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { filesUnder, isSpec, moduleGraph, ROOT } from './module-graph.mjs';

export const DOC = 'docs/architecture.md';
/** Files every folder may hold without the tree naming them: a facade and Nest module wiring. */
const IMPLIED = [/(^|\/)index\.ts$/, /\.module\.ts$/];
/** A word of a tree line that names a file (its last dot part is one of these). */
const FILE_WORD = /^[\w.<>*/-]+\.(ts|lua)$/;

const strip = (word) => word.replace(/^[`(,;:"]+|[`),;:."]+$/g, '');
const words = (text) => text.trim().split(/\s+/).map(strip).filter(Boolean);

/** The modules the code has, each with the modules its non-spec files import (module-graph.mjs names), sorted. */
export function codeUses(graph = moduleGraph()) {
  const uses = new Map();
  for (const [from, edges] of graph) if (!from.endsWith('.ts')) uses.set(from, [...edges.keys()].sort());
  return new Map([...uses].sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * The rows of the table headed `| module | owns | uses |`: module name (backticks off), the modules of its "uses"
 * cell (a comma list; a note in parentheses is not a module; `—` is none) and its 1-based line in the doc.
 */
export function docUses(text) {
  const lines = text.split('\n');
  const head = lines.findIndex((l) => /^\|\s*module\s*\|\s*owns\s*\|\s*uses\s*\|/.test(l));
  if (head < 0) throw new Error(`${DOC}: no table headed | module | owns | uses |`);
  const rows = [];
  for (let i = head + 2; i < lines.length && lines[i].startsWith('|'); i++) {
    const cells = lines[i].split('|').slice(1, -1);
    const module = strip(cells[0].trim());
    const cell = cells[cells.length - 1].replace(/\([^)]*\)/g, '');
    const uses = cell
      .split(',')
      .map((u) => strip(u.trim()))
      .filter((u) => u && u !== '—');
    rows.push({ module, uses: uses.sort(), line: i + 1 });
  }
  return rows;
}

/** One message per table row whose "uses" differs from the code, per module without a row, per row of no module. */
export function usesProblems(text, graph = moduleGraph()) {
  const code = codeUses(graph);
  const rows = docUses(text);
  const problems = [];
  for (const { module, uses, line } of rows) {
    const actual = code.get(module);
    if (!actual) {
      problems.push(
        `${DOC}:${line} row \`${module}\` names no module of src/ (modules: ${[...code.keys()].join(', ')})`,
      );
      continue;
    }
    const missing = actual.filter((u) => !uses.includes(u));
    const extra = uses.filter((u) => !actual.includes(u));
    const why = missing.map((m) => `${m} (${graph.get(module).get(m)[0]})`);
    if (missing.length > 0) problems.push(`${DOC}:${line} row \`${module}\`: "uses" lacks ${why.join(', ')}`);
    if (extra.length > 0)
      problems.push(`${DOC}:${line} row \`${module}\`: "uses" names ${extra.join(', ')}, not imported`);
  }
  for (const [module, uses] of code)
    if (!rows.some((r) => r.module === module))
      problems.push(`${DOC} modules table: no row for \`${module}\` (uses ${uses.join(', ') || '—'})`);
  return problems;
}

/** The first fenced block after the heading "### The module tree", with the doc line of its first line. */
function treeBlock(text) {
  const lines = text.split('\n');
  const heading = lines.findIndex((l) => l.trim() === '### The module tree');
  const open = lines.findIndex((l, i) => i > heading && l.startsWith('```'));
  const close = lines.findIndex((l, i) => i > open && l.startsWith('```'));
  if (heading < 0 || open < 0 || close < 0) throw new Error(`${DOC}: no fenced block under "### The module tree"`);
  return { lines: lines.slice(open + 1, close), first: open + 2 };
}

/**
 * The entries of the tree block: every folder (a line's first word ending in `/`) and file word, as a repository
 * path or pattern, with its doc line. A line sits in the folder of the nearest line above it that is less indented
 * and opens a folder; the words after a folder on its own line are inside that folder. `#` lines are the legend.
 */
export function treeEntries(text) {
  const { lines, first } = treeBlock(text);
  const stack = [];
  const entries = [];
  lines.forEach((raw, i) => {
    if (raw.trim() === '' || raw.trim().startsWith('#')) return;
    const indent = raw.length - raw.trimStart().length;
    while (stack.length > 0 && stack[stack.length - 1].indent >= indent) stack.pop();
    let base = stack.length > 0 ? stack[stack.length - 1].path : '';
    const [head, ...rest] = words(raw);
    const line = first + i;
    let names = [head, ...rest];
    if (head.endsWith('/')) {
      base = `${base}${head}`;
      stack.push({ path: base, indent });
      entries.push({ kind: 'folder', path: base.slice(0, -1), line });
      names = rest;
    }
    for (const name of names.filter((w) => FILE_WORD.test(w))) entries.push({ kind: 'file', path: base + name, line });
  });
  return entries;
}

/** A tree entry as a regular expression over repository paths: `<part>` and `*` stand for any part of a name. */
function entryPattern(path) {
  const re = path
    .split(/(<[^>]+>|\*)/)
    .map((p) => (p === '*' || /^<[^>]+>$/.test(p) ? '[^/]*' : p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${re}$`);
}

/** Files of src/ the tree can name: non-spec .ts, and .lua. */
const srcFiles = () => [...filesUnder('src', '.ts').filter((f) => !isSpec(f)), ...filesUnder('src', '.lua')];

/** One message per tree entry naming nothing that exists, and per non-spec .ts file of src/ the tree lacks. */
export function treeProblems(text, files = srcFiles()) {
  const entries = treeEntries(text);
  const problems = [];
  const patterns = [];
  for (const e of entries) {
    if (e.kind === 'folder') {
      if (!statSync(join(ROOT, e.path), { throwIfNoEntry: false })?.isDirectory())
        problems.push(`${DOC}:${e.line} tree names folder ${e.path}/, which does not exist`);
      continue;
    }
    const pattern = entryPattern(e.path);
    patterns.push(pattern);
    if (!files.some((f) => pattern.test(f)))
      problems.push(
        `${DOC}:${e.line} tree names ${e.path}, which ${/[<*]/.test(e.path) ? 'matches no file' : 'does not exist'}`,
      );
  }
  for (const f of files.filter((f) => f.endsWith('.ts'))) {
    if (IMPLIED.some((p) => p.test(f)) || patterns.some((p) => p.test(f))) continue;
    problems.push(`${f}: not in the tree of ${DOC}; name it under ${f.replace(/[^/]+$/, '')}`);
  }
  return problems;
}

/** Every problem of the doc (docs/architecture.md as it is now). */
export function architectureProblems() {
  const text = readFileSync(join(ROOT, DOC), 'utf8');
  return [...usesProblems(text), ...treeProblems(text)];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--print')) {
    console.log('"uses" of each module, from the code:');
    for (const [module, uses] of codeUses()) console.log(`| \`${module}\` | … | ${uses.join(', ') || '—'} |`);
    const text = readFileSync(join(ROOT, DOC), 'utf8');
    const lacking = treeProblems(text).filter((p) => p.startsWith('src/'));
    console.log(lacking.length > 0 ? '\nFiles the tree lacks:' : '\nThe tree names every file.');
    for (const p of lacking) console.log(`  ${p.split(':')[0]}`);
  } else {
    const problems = architectureProblems();
    for (const p of problems) console.log(p);
    if (problems.length > 0) process.exit(1);
  }
}
