// What the repository's ESLint rules share: a file's path relative to the repository root, the file a relative
// import names, and the names an import or re-export statement brings in.
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** `path` (absolute, or relative to the repository root) as a repository path with forward slashes. */
export function repoPath(path) {
  return relative(ROOT, resolve(ROOT, path)).split(sep).join('/');
}

/** The repository path of the file relative specifier `specifier` of `importer` names (.js read as .ts), or null. */
export function importTarget(importer, specifier) {
  if (typeof specifier !== 'string' || !specifier.startsWith('.')) return null;
  return repoPath(resolve(dirname(importer), specifier).replace(/\.js$/, '.ts'));
}

/** Whether repository path `path` is `prefix` or lies under it (a prefix ending in '/' is a folder). */
export function within(path, prefix) {
  return prefix.endsWith('/') ? path.startsWith(prefix) : path === prefix;
}

/** The imported (or re-exported) names of an import or export declaration: `[{ name, node }]`. */
export function namesOf(node) {
  return (node.specifiers ?? [])
    .map((s) => ({ name: (s.imported ?? s.local)?.name, node: s }))
    .filter((s) => typeof s.name === 'string');
}

/**
 * Visitors calling `check(node, target)` for each import or re-export from another file of the repository (`target`
 * its repository path), when `filename` is under `src/` and not a spec.
 */
export function onImports(filename, check) {
  const path = repoPath(filename);
  if (!path.startsWith('src/') || path.endsWith('.spec.ts')) return {};
  const visit = (node) => {
    const target = importTarget(filename, node.source?.value);
    if (target !== null) check(node, target, path);
  };
  return { ImportDeclaration: visit, ExportNamedDeclaration: visit, ExportAllDeclaration: visit };
}
