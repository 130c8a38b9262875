import { Scope } from '../../src/modules/metadata/index.js';
import { appIdOf } from './tenancy.js';

const S = Scope;
/** A task body that passes validation and stays PENDING for an hour. */
export const LATER_TASK = { handler: 'noop', delayMs: 3_600_000 };
let seq = 0;
const ATTEMPT = '/api/worker/nodes/{nodeId}/attempts/{instanceId}';

/** Every signed route (README "API"), with the scope it needs and a body that passes validation (a fresh one per call). */
export const ROUTES: Array<[method: string, path: string, scope: Scope, body?: () => unknown]> = [
  ['POST', '/api/tasks', S.TASKS_WRITE, () => LATER_TASK],
  ['POST', '/api/tasks/batch', S.TASKS_WRITE, () => ({ tasks: [LATER_TASK] })],
  ['POST', '/api/tasks/{requestId}/cancel', S.TASKS_WRITE],
  ['GET', '/api/tasks', S.TASKS_READ],
  ['GET', '/api/tasks/{requestId}', S.TASKS_READ],
  ['GET', '/api/tasks/{requestId}/logs', S.TASKS_READ],
  ['POST', '/api/tasks/{requestId}/callback/redeliver', S.TASKS_WRITE],
  ['POST', '/api/callbacks/register', S.TASKS_WRITE, () => ({ url: 'https://hooks.example.com/scoped' })],
  ['GET', '/api/callbacks', S.TASKS_READ],
  ['GET', '/api/callbacks/deliveries', S.TASKS_READ],
  ['GET', '/api/callbacks/hosts', S.TASKS_READ],
  [
    'POST',
    '/api/callbacks/hosts/redeliver',
    S.TASKS_WRITE,
    () => ({ host: 'hooks.example.com:443', since: new Date(Date.now() - 3_600_000).toISOString() }),
  ],
  ['GET', '/api/overview', S.TASKS_READ],
  ['DELETE', '/api/callbacks', S.TASKS_WRITE],
  ['POST', '/api/notifications/rules', S.JOBS_WRITE, () => ({ name: `scoped-${++seq}`, kind: 'RECOVERY' })],
  ['PUT', '/api/notifications/rules/{name}', S.JOBS_WRITE, () => ({ kind: 'RECOVERY' })],
  ['GET', '/api/notifications/rules', S.JOBS_READ],
  ['GET', '/api/notifications/rules/{name}', S.JOBS_READ],
  ['DELETE', '/api/notifications/rules/{name}', S.JOBS_WRITE],
  ['POST', '/api/notifications/rules/{name}/test', S.JOBS_WRITE],
  [
    'POST',
    '/api/jobs',
    S.JOBS_WRITE,
    () => ({
      code: `scoped-${++seq}`,
      handler: 'noop',
      triggerType: 'FIXED_RATE',
      triggerExpr: '3600000',
      enabled: false,
    }),
  ],
  ['GET', '/api/jobs', S.JOBS_READ],
  ['GET', '/api/notifications', S.JOBS_READ],
  ['POST', '/api/jobs/import-crontab', S.JOBS_WRITE, () => ({ fileName: `scoped-${++seq}`, content: '' })],
  ['GET', '/api/jobs/{id}', S.JOBS_READ],
  ['PATCH', '/api/jobs/{id}', S.JOBS_WRITE, () => ({ description: 'x' })],
  ['DELETE', '/api/jobs/{id}', S.JOBS_WRITE],
  ['POST', '/api/jobs/{id}/pause', S.JOBS_WRITE],
  ['POST', '/api/jobs/{id}/resume', S.JOBS_WRITE],
  ['POST', '/api/jobs/{id}/trigger', S.JOBS_WRITE, () => ({})],
  [
    'POST',
    '/api/jobs/{id}/backfill',
    S.JOBS_WRITE,
    () => ({ from: '2026-01-01T00:00:00Z', to: '2026-01-01T01:00:00Z' }),
  ],
  ['POST', '/api/jobs/{id}/instances/{instanceId}/cancel', S.JOBS_WRITE],
  ['POST', '/api/jobs/{id}/instances/{instanceId}/callback/redeliver', S.JOBS_WRITE],
  ['GET', '/api/jobs/{id}/instances/{instanceId}', S.JOBS_READ],
  ['GET', '/api/jobs/{id}/instances/{instanceId}/logs', S.JOBS_READ],
  ['GET', '/api/jobs/{id}/instances', S.JOBS_READ],
  ['POST', '/api/schedules/preview', S.JOBS_READ, () => ({ triggerExpr: '0 30 2 * * *', timeZone: 'Europe/Berlin' })],
  ['GET', '/api/schedules/load', S.JOBS_READ],
  ['GET', '/api/nodes', S.NODES_READ],
  ['POST', '/api/clients', S.ADMIN, () => ({ appId: appIdOf('scoped') })],
  ['GET', '/api/clients', S.ADMIN],
  ['GET', '/api/clients/{appId}', S.ADMIN],
  ['PATCH', '/api/clients/{appId}', S.ADMIN, () => ({ maxJobs: 5 })],
  ['POST', '/api/clients/{appId}/rotate-secret', S.ADMIN],
  ['GET', '/api/audit', S.ADMIN],
  // App workers (docs/workers.md): a node of the caller's app; the other routes name a node that does not exist.
  ['POST', '/api/worker/nodes', S.WORKER, () => ({ handlers: ['scopes.probe'], capacity: 1 })],
  ['POST', '/api/worker/nodes/{nodeId}/heartbeat', S.WORKER, () => ({ active: 0 })],
  ['POST', '/api/worker/nodes/{nodeId}/claims', S.WORKER, () => ({ max: 1, waitMs: 0 })],
  ['POST', '/api/worker/nodes/{nodeId}/leases', S.WORKER, () => ({ attempts: [] })],
  ['POST', `${ATTEMPT}/checkpoint`, S.WORKER, () => ({ fencingToken: 1, state: {} })],
  ['POST', `${ATTEMPT}/progress`, S.WORKER, () => ({ fencingToken: 1, fraction: 0.5 })],
  ['POST', `${ATTEMPT}/logs`, S.WORKER, () => ({ fencingToken: 1, lines: [{ level: 'info', message: 'x', at: 0 }] })],
  ['POST', `${ATTEMPT}/finish`, S.WORKER, () => ({ fencingToken: 1, outcome: 'SUCCESS' })],
  [
    'POST',
    '/api/worker/nodes/{nodeId}/finishes',
    S.WORKER,
    () => ({ items: [{ instanceId: '00000000-0000-7000-8000-000000000000', fencingToken: 1, outcome: 'SUCCESS' }] }),
  ],
  ['DELETE', '/api/worker/nodes/{nodeId}', S.WORKER],
];

/** Signed routes any signed caller may use, whatever its scopes (`x-any-signed-caller`): no 403 to check. */
export const ANY_SIGNED_ROUTES: Array<[method: string, path: string]> = [['GET', '/api/whoami']];

/** The concrete path: ids that name nothing, so a request that passes the guard changes nothing it should not. */
export const concrete = (path: string) =>
  path
    .replace('{requestId}', 'no-such-task')
    .replace('{id}', 'no-such-job')
    .replace('{instanceId}', 'no-such-instance')
    .replace('{appId}', 'no-such-app')
    .replace('{nodeId}', 'w-no-such-node')
    .replace('{name}', 'no-such-rule');
