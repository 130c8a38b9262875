import { AdmissionInstances } from './admission-instances.js';
import { DispatchLedger } from './dispatch-ledger.js';
import { ExecutionInstances } from './execution-instances.js';
import { FireLedger } from './fire-ledger.js';
import { InstanceIntake } from './instance-intake.js';
import { InstanceReads } from './instance-reads.js';
import { InstanceRetention } from './instance-retention.js';
import { InstanceTransitions } from './instance-transitions.js';
import { NotificationInstances } from './notification-instances.js';
import { ReconcileInstances } from './reconcile-instances.js';
import { StagedInstances } from './staged-instances.js';

export { AdmissionInstances, type SlotHolderRow } from './admission-instances.js';
export { DispatchLedger } from './dispatch-ledger.js';
export {
  type CheckpointWrite,
  ExecutionInstances,
  type ProgressReport,
  type StoredCheckpoint,
  type SucceededAttempt,
} from './execution-instances.js';
export { FireLedger } from './fire-ledger.js';
export { type Intake, InstanceIntake } from './instance-intake.js';
export {
  type InstanceScope,
  InstanceReads,
  type LastRun,
  type RunningRow,
  type TaskFilter,
  type UnfinishedGroup,
} from './instance-reads.js';
export { InstanceRetention } from './instance-retention.js';
export { InstanceTransitions, type TransitionGuard } from './instance-transitions.js';
export { NotificationInstances, type NotifiedRun } from './notification-instances.js';
export { type PendingGroup, ReconcileInstances, type ServedHandlers } from './reconcile-instances.js';
export { StagedInstances, type StagedRef, type UnreleasedFire } from './staged-instances.js';
export { handBackMark, markStagedFires, StagedKind } from './staged.js';

/** The job_instance query objects, one per caller (docs/data-model.md "Repositories and transactions"). */
export const INSTANCE_QUERIES = [
  InstanceIntake,
  FireLedger,
  StagedInstances,
  DispatchLedger,
  ExecutionInstances,
  AdmissionInstances,
  ReconcileInstances,
  InstanceReads,
  InstanceTransitions,
  InstanceRetention,
  NotificationInstances,
];
