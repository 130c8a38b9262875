// ESLint rule `tickwheel/module-boundaries`: code under src/ reaches another module only through that module's
// index.ts. A module (a "unit") is src/modules/<name>, src/infra/<name>, src/common or src/config; relative
// imports inside one unit are free. Only relative specifiers are checked: packages are not modules of this repo.
import { importTarget, repoPath } from './rule-paths.mjs';

/** The unit a path belongs to ('src/modules/x', 'src/common', ...), or null outside every unit. */
export function unitOf(absPath) {
  const parts = repoPath(absPath).split('/');
  if (parts[0] !== 'src' || parts.length < 3) return null;
  if (parts[1] === 'modules' || parts[1] === 'infra') return parts.length >= 4 ? `src/${parts[1]}/${parts[2]}` : null;
  return ['common', 'config'].includes(parts[1]) ? `src/${parts[1]}` : null;
}

/** The message for an import of `target` from outside its unit, or null when the import is allowed. */
export function boundaryViolation(importer, specifier) {
  const target = importTarget(importer, specifier);
  if (target === null) return null;
  const unit = unitOf(target);
  if (unit === null || unit === unitOf(importer)) return null;
  if (target === `${unit}/index.ts`) return null;
  return `'${specifier}' reaches into ${unit}: import it through ${unit}/index.ts`;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'a module imports another module only through its index.ts' },
    schema: [],
  },
  create(context) {
    const check = (node) => {
      if (node.source?.type !== 'Literal' || typeof node.source.value !== 'string') return;
      const message = boundaryViolation(context.filename, node.source.value);
      if (message) context.report({ node: node.source, message });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};
