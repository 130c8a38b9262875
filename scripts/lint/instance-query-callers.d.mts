// Types of scripts/lint/instance-query-callers.mjs for the TypeScript tests that import it.
import type { Rule } from 'eslint';
declare const rule: Rule.RuleModule;
export default rule;
export const CALLERS: Record<string, string[]>;
