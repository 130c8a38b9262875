// ESLint rule `tickwheel/constructor-params`: a constructor under src/ takes at most `max` parameters (default 10).
// A class that needs more coordinates too much at once: give its parts their own providers, each injected with a
// narrow interface of what it uses (docs/execution.md "Where it lives" shows the task runner's).
import { repoPath } from './rule-paths.mjs';

export const DEFAULT_MAX = 10;

export default {
  meta: {
    type: 'suggestion',
    docs: { description: 'a constructor takes at most `max` parameters' },
    schema: [{ type: 'object', properties: { max: { type: 'integer', minimum: 1 } }, additionalProperties: false }],
  },
  create(context) {
    const max = context.options[0]?.max ?? DEFAULT_MAX;
    const path = repoPath(context.filename);
    if (!path.startsWith('src/') || path.endsWith('.spec.ts')) return {};
    return {
      'MethodDefinition[kind="constructor"]'(node) {
        const n = node.value.params.length;
        if (n <= max) return;
        const cls = node.parent.parent.id?.name ?? 'this class';
        context.report({
          node: node.key,
          message: `${cls}'s constructor takes ${n} parameters, over ${max}: split it into parts it coordinates`,
        });
      },
    };
  },
};
