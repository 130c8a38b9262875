// ESLint rule `tickwheel/instance-query-callers`: each job_instance query object of the metadata module
// (src/modules/metadata/instances/, docs/data-model.md "Repositories and transactions") is imported, so injected,
// only by the callers it was made for, listed in CALLERS (a path ending in '/' is a folder). InstanceReads, the read
// model, is anyone's. The metadata module itself composes them freely.
import { namesOf, onImports, within } from './rule-paths.mjs';

export const CALLERS = {
  InstanceIntake: ['src/modules/openapi/services/tasks.service.ts'],
  FireLedger: [
    'src/modules/trigger/trigger.service.ts',
    'src/modules/dispatch/shard-placement.ts',
    'src/modules/trigger/job-change-fires.ts',
  ],
  StagedInstances: ['src/modules/trigger/leader/', 'src/modules/trigger/staged-takeback.ts'],
  DispatchLedger: ['src/modules/dispatch/dispatch.service.ts'],
  ExecutionInstances: ['src/modules/execution/'],
  AdmissionInstances: ['src/modules/dispatch/admission/'],
  ReconcileInstances: ['src/modules/dispatch/reconciler.service.ts', 'src/modules/dispatch/unadvertised-waits.ts'],
  InstanceReads: ['src/'],
  InstanceTransitions: ['src/modules/dispatch/', 'src/modules/execution/'],
  InstanceRetention: ['src/modules/trigger/retention.service.ts'],
  NotificationInstances: ['src/modules/notifications/'],
};

const METADATA = 'src/modules/metadata/';

export default {
  meta: {
    type: 'problem',
    docs: { description: 'a job_instance query object is used only by the callers it was made for' },
    schema: [],
  },
  create(context) {
    return onImports(context.filename, (node, target, path) => {
      if (!target.startsWith(METADATA) || path.startsWith(METADATA)) return;
      for (const { name, node: at } of namesOf(node)) {
        const callers = CALLERS[name];
        if (callers && !callers.some((c) => within(path, c)))
          context.report({
            node: at,
            message:
              `${name} is made for ${callers.join(', ')} (scripts/lint/instance-query-callers.mjs): read or ` +
              'write job_instance through the query object of this caller, or add one',
          });
      }
    });
  },
};
