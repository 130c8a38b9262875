// The module graph of src/: which module imports which, read from every import and export statement of the .ts
// files (type-only ones and import() included; comments and strings are not statements), and its cycles.
// A module is a unit of module-boundaries.mjs (src/modules/<m>, src/infra/<m>, src/common, src/config), named
// without its src/ and modules/ prefix ('metadata', 'infra/redis', 'common'); the other folders of src/ are named
// by their folder ('bin', 'client') and the files at src/'s root by their file name ('bootstrap.ts').
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { unitOf } from './module-boundaries.mjs';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const posix = (p) => p.split(sep).join('/');
export const isSpec = (file) => /\.spec\.ts$/.test(file);

/** The repository paths (posix) of the files named `*<ext>` under `dir` (a repository path), sorted. */
export function filesUnder(dir = 'src', ext = '.ts') {
  const out = [];
  const walk = (abs) => {
    for (const e of readdirSync(abs, { withFileTypes: true })) {
      const p = join(abs, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(ext)) out.push(posix(relative(ROOT, p)));
    }
  };
  walk(join(ROOT, dir));
  return out.sort();
}

/** The module of repository path `file` (see the top of this file), or null outside src/. */
export function moduleOf(file) {
  const unit = unitOf(join(ROOT, file));
  if (unit) return unit.replace(/^src\/(modules\/)?/, '');
  const parts = posix(file).split('/');
  if (parts[0] !== 'src') return null;
  return parts.length === 2 ? parts[1].replace(/\.js$/, '.ts') : parts[1];
}

/** The repository paths `file` imports by a relative specifier ('.js' read as its '.ts' source). */
export function importsOf(file) {
  return importsIn(file, readFileSync(join(ROOT, file), 'utf8'));
}

/** {@link importsOf} for the source `text` of repository path `file`. */
export function importsIn(file, text) {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles
    .map((f) => f.fileName)
    .filter((s) => s.startsWith('.'))
    .map((s) => posix(relative(ROOT, resolve(ROOT, dirname(file), s))).replace(/\.js$/, '.ts'));
}

/**
 * Module → the modules it imports → the files (importer → imported) that do, over the .ts files under src/
 * (specs only when `specs`). Imports inside one module and of paths outside src/ are left out.
 */
export function moduleGraph({ specs = false } = {}) {
  const graph = new Map();
  for (const file of filesUnder('src')) {
    if (isSpec(file) && !specs) continue;
    const from = moduleOf(file);
    if (!graph.has(from)) graph.set(from, new Map());
    for (const target of importsOf(file)) {
      const to = moduleOf(target);
      if (to === null || to === from) continue;
      const edges = graph.get(from);
      if (!edges.has(to)) edges.set(to, []);
      edges.get(to).push(`${file} → ${target}`);
    }
  }
  return graph;
}

/** The strongly connected sets of more than one module (Tarjan), each sorted; every one holds a cycle. */
export function cyclesOf(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (v) => {
    index.set(v, index.size);
    low.set(v, index.get(v));
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const set = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      set.push(w);
    } while (w !== v);
    if (set.length > 1) found.push(set.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found.sort((a, b) => a[0].localeCompare(b[0]));
}

/** The edges of `graph` inside the module set `set`, one `from → to: importer → imported, …` line each. */
export function edgesWithin(graph, set) {
  const lines = [];
  for (const from of set)
    for (const [to, files] of graph.get(from) ?? [])
      if (set.includes(to)) lines.push(`${from} → ${to}: ${files.join(', ')}`);
  return lines;
}
