// Types of scripts/lint/module-boundaries.mjs for the TypeScript tests that import it.
import type { Rule } from 'eslint';
declare const rule: Rule.RuleModule;
export default rule;
export function unitOf(absPath: string): string | null;
export function boundaryViolation(importer: string, specifier: string): string | null;
