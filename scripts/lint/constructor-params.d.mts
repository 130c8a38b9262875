// Types of scripts/lint/constructor-params.mjs for the TypeScript tests that import it.
import type { Rule } from 'eslint';
declare const rule: Rule.RuleModule;
export default rule;
export const DEFAULT_MAX: number;
