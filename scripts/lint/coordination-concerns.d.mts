// Types of scripts/lint/coordination-concerns.mjs for the TypeScript tests that import it.
import type { Rule } from 'eslint';
declare const rule: Rule.RuleModule;
export default rule;
