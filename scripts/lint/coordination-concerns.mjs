// ESLint rule `tickwheel/coordination-concerns`: outside the coordination module, code injects the coordination
// concern it uses (LOCKS, NODE_QUEUES, DELAY_QUEUE, NODE_REGISTRY, SEMAPHORES, NONCES, COUNTERS, SIGNALS, each
// with its port type; docs/architecture.md "Coordination"), never the whole port: COORDINATION and CoordinationPort
// are the coordination module's own.
import { namesOf, onImports } from './rule-paths.mjs';

const MODULE = 'src/modules/coordination/';
const WHOLE = new Set(['COORDINATION', 'CoordinationPort']);

export default {
  meta: {
    type: 'problem',
    docs: { description: 'inject a coordination concern (LOCKS, NODE_QUEUES, …), not the whole port' },
    schema: [],
  },
  create(context) {
    return onImports(context.filename, (node, target, path) => {
      if (!target.startsWith(MODULE) || path.startsWith(MODULE)) return;
      for (const { name, node: at } of namesOf(node))
        if (WHOLE.has(name))
          context.report({
            node: at,
            message:
              `${name} is the whole coordination port: inject the concern this code uses (LOCKS, NODE_QUEUES, ` +
              'DELAY_QUEUE, NODE_REGISTRY, SEMAPHORES, NONCES, COUNTERS, SIGNALS) with its port type',
          });
    });
  },
};
