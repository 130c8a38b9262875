export { WorkersModule } from './workers.module.js';
export {
  MAX_CLAIM_WAIT_MS,
  MAX_WORKER_NODES_PER_APP,
  SEAT_CACHE_MS,
  type WorkerNode,
  WorkerNodes,
  type WorkerRegistration,
} from './worker-nodes.js';
export { CLAIM_WAITS_PER_APP, CLAIM_WAITS_PER_PROCESS, RUNNING_PER_CAPACITY, WorkerClaims } from './worker-claims.js';
