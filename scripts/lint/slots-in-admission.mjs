// ESLint rule `tickwheel/slots-in-admission`: a job's maxConcurrency semaphore is admission's alone
// (docs/admission.md): outside src/modules/dispatch/admission (and the coordination module that implements it), no
// code imports the semaphore concern (SEMAPHORES, SemaphorePort, jobSlots) or calls its methods (acquireSlots,
// seedSlots, releaseSlot). Others report an instance's end to Admission.ended.
import { namesOf, onImports, repoPath } from './rule-paths.mjs';

const OWNERS = ['src/modules/dispatch/admission/', 'src/modules/coordination/'];
const CONCERN = new Set(['SEMAPHORES', 'SemaphorePort', 'jobSlots']);
const METHODS = new Set(['acquireSlots', 'seedSlots', 'releaseSlot']);
const ADVICE = "a job semaphore is admission's alone (docs/admission.md): report the instance's end to Admission";

export default {
  meta: {
    type: 'problem',
    docs: { description: 'only dispatch/admission reaches the job semaphores' },
    schema: [],
  },
  create(context) {
    const path = repoPath(context.filename);
    if (!path.startsWith('src/') || path.endsWith('.spec.ts') || OWNERS.some((o) => path.startsWith(o))) return {};
    return {
      ...onImports(context.filename, (node, target) => {
        if (!target.startsWith('src/modules/coordination/')) return;
        for (const { name, node: at } of namesOf(node))
          if (CONCERN.has(name)) context.report({ node: at, message: `${name}: ${ADVICE}` });
      }),
      'CallExpression > MemberExpression.callee > Identifier.property'(node) {
        if (METHODS.has(node.name)) context.report({ node, message: `${node.name}(): ${ADVICE}` });
      },
    };
  },
};
