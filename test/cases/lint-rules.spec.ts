import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import constructorParams, { DEFAULT_MAX } from '../../scripts/lint/constructor-params.mjs';
import coordinationConcerns from '../../scripts/lint/coordination-concerns.mjs';
import instanceQueryCallers, { CALLERS } from '../../scripts/lint/instance-query-callers.mjs';
import moduleBoundaries from '../../scripts/lint/module-boundaries.mjs';
import slotsInAdmission from '../../scripts/lint/slots-in-admission.mjs';
import { INSTANCE_QUERIES } from '../../src/modules/metadata/index.js';

/**
 * The repository's ESLint rules (scripts/lint/, wired in eslint.config.js), each on code it must let through and
 * code it must refuse; the file a case stands for is its `filename` (a repository path). `npm run lint` runs them
 * on the code itself.
 */
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser } });
const at = (filename: string, code: string) => ({ filename, code });

tester.run('tickwheel/module-boundaries', moduleBoundaries, {
  valid: [
    at('src/modules/dispatch/a.ts', "import { InstanceReads } from '../metadata/index.js';"),
    at('src/modules/dispatch/a.ts', "import { Admission } from './admission/admission.service.js';"),
  ],
  invalid: [
    {
      ...at('src/modules/dispatch/a.ts', "import { handBackMark } from '../metadata/instances/staged.js';"),
      errors: [{ message: /reaches into src\/modules\/metadata: import it through src\/modules\/metadata\/index.ts/ }],
    },
  ],
});

tester.run('tickwheel/coordination-concerns', coordinationConcerns, {
  valid: [
    at('src/modules/trigger/a.ts', "import { LOCKS, type LockPort } from '../coordination/index.js';"),
    at('src/modules/coordination/coordination.module.ts', "import { COORDINATION } from './coordination.tokens.js';"),
    at('src/modules/dispatch/a.spec.ts', "import { COORDINATION } from '../coordination/index.js';"),
  ],
  invalid: [
    {
      ...at(
        'src/modules/dispatch/a.ts',
        "import { COORDINATION, type CoordinationPort } from '../coordination/index.js';",
      ),
      errors: [{ message: /^COORDINATION is the whole coordination port/ }, { message: /^CoordinationPort is/ }],
    },
    {
      ...at('src/modules/jobs/a.ts', "export { COORDINATION } from '../coordination/index.js';"),
      errors: [{ message: /inject the concern this code uses/ }],
    },
  ],
});

tester.run('tickwheel/slots-in-admission', slotsInAdmission, {
  valid: [
    at(
      'src/modules/dispatch/admission/job-semaphore.ts',
      "import { jobSlots, SEMAPHORES } from '../../coordination/index.js';\nvoid slots.releaseSlot(jobSlots('j'), 'i');",
    ),
    at('src/modules/dispatch/cancel.service.ts', "await admission.ended(row, { kind: 'quarantined' }, dispatch);"),
    at('src/modules/dispatch/a.spec.ts', 'await port.acquireSlots(name, ids, 1, 10, 0);'),
  ],
  invalid: [
    {
      ...at(
        'src/modules/dispatch/cancel.service.ts',
        "import { jobSlots, SEMAPHORES } from '../coordination/index.js';",
      ),
      errors: [{ message: /^jobSlots: a job semaphore is admission's alone/ }, { message: /^SEMAPHORES:/ }],
    },
    {
      ...at(
        'src/modules/execution/a.ts',
        'await this.port.releaseSlot(name, id);\nawait port?.seedSlots(n, [], 1, 0);',
      ),
      errors: [{ message: /^releaseSlot\(\): a job semaphore/ }, { message: /^seedSlots\(\)/ }],
    },
  ],
});

const params = (n: number) => Array.from({ length: n }, (_, i) => `private readonly p${i}: P`).join(', ');

tester.run('tickwheel/constructor-params', constructorParams, {
  valid: [
    at('src/modules/x/a.ts', `class A { constructor(${params(DEFAULT_MAX)}) {} }`),
    { ...at('src/modules/x/a.ts', 'class A { constructor(a, b) {} }'), options: [{ max: 2 }] },
    at('src/modules/x/a.spec.ts', `class A { constructor(${params(DEFAULT_MAX + 1)}) {} }`),
    at('src/modules/x/a.ts', `function f(${params(DEFAULT_MAX + 1).replace(/private readonly /g, '')}) {}`),
  ],
  invalid: [
    {
      ...at('src/modules/x/a.ts', `class Runner { constructor(${params(DEFAULT_MAX + 1)}) {} }`),
      errors: [{ message: `Runner's constructor takes 11 parameters, over 10: split it into parts it coordinates` }],
    },
    {
      ...at('src/modules/x/a.ts', 'export default class { constructor(a, b, c) {} }'),
      options: [{ max: 2 }],
      errors: [{ message: /^this class's constructor takes 3 parameters/ }],
    },
  ],
});

tester.run('tickwheel/instance-query-callers', instanceQueryCallers, {
  valid: [
    at(
      'src/modules/dispatch/admission/waiting-turns.ts',
      "import { AdmissionInstances } from '../../metadata/index.js';",
    ),
    at('src/modules/execution/progress-writer.ts', "import { ExecutionInstances } from '../metadata/index.js';"),
    at('src/modules/jobs/a.ts', "import { InstanceReads, JobInstance } from '../metadata/index.js';"),
    at(
      'src/modules/metadata/unit-of-work/execution-ledger.ts',
      "import { ExecutionInstances } from '../instances/index.js';",
    ),
    at('src/modules/jobs/a.spec.ts', "import { FireLedger } from '../metadata/index.js';"),
  ],
  invalid: [
    {
      ...at('src/modules/dispatch/reconciler.service.ts', "import { AdmissionInstances } from '../metadata/index.js';"),
      errors: [{ message: /^AdmissionInstances is made for src\/modules\/dispatch\/admission\// }],
    },
    {
      ...at(
        'src/modules/jobs/jobs.service.ts',
        "import { InstanceTransitions, StagedInstances } from '../metadata/index.js';",
      ),
      errors: [{ message: /^InstanceTransitions is made for/ }, { message: /^StagedInstances is made for/ }],
    },
  ],
});

describe('tickwheel/instance-query-callers', () => {
  it('should name the callers of every job_instance query object, and of nothing else', () => {
    expect(Object.keys(CALLERS).sort()).toEqual(INSTANCE_QUERIES.map((q) => q.name).sort());
  });
});
