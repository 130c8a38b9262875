import { BOUNDS } from '../../common/index.js';
import { JobDefinition, JobInstance, JobInstanceStatus, OverlapPolicy } from '../metadata/index.js';

/** The note of a fire a full QUEUE did not take (docs/trigger.md "Overlap"). */
export const QUEUE_FULL = 'OVERLAP_QUEUE_FULL';

/** What the overlap policy decided for one new fire. */
export interface OverlapDecision {
  /** Status the new row is written with: PENDING, WAITING (QUEUE) or CANCELLED (SKIP, a full QUEUE). */
  status: JobInstanceStatus.PENDING | JobInstanceStatus.WAITING | JobInstanceStatus.CANCELLED;
  /** Earlier unfinished instances to cancel after the commit (REPLACE). */
  replace: JobInstance[];
  /** Why the row is not PENDING, recorded in its `error`. */
  note?: string;
}

/**
 * Applies a job's overlap policy to a new fire (docs/trigger.md "Overlap"); appends the new row to `busy`
 * (unfinished instances, oldest first) so several fires of one pass see each other.
 */
export function decideOverlap(def: JobDefinition, busy: JobInstance[], fresh: JobInstance): OverlapDecision {
  const unfinished = busy.filter((b) => b.status !== JobInstanceStatus.CANCELLED);
  // A run cancelled while RUNNING still counts while its stop grace lasts (lease_until set by its canceller,
  // docs/admission.md): its handler may still be stopping. Rows cancelled in this pass carry no lease.
  const running = [
    ...unfinished,
    ...busy.filter((b) => b.status === JobInstanceStatus.CANCELLED && b.leaseUntil !== null),
  ];
  let d: OverlapDecision;
  switch (running.length === 0 ? OverlapPolicy.ALLOW : def.overlapPolicy) {
    case OverlapPolicy.SKIP:
      d = {
        status: JobInstanceStatus.CANCELLED,
        replace: [],
        note: `OVERLAP_SKIP: fire of ${new Date(running[0].fireTime).toISOString()} still unfinished`,
      };
      break;
    case OverlapPolicy.QUEUE:
      d = queueOrSkip(def, busy);
      break;
    case OverlapPolicy.REPLACE:
      d = { status: JobInstanceStatus.PENDING, replace: unfinished, note: undefined };
      break;
    default:
      d = { status: JobInstanceStatus.PENDING, replace: [], note: undefined };
  }
  fresh.status = d.status;
  if (d.note) fresh.error = d.note;
  if (d.replace.length > 0) busy.length = 0;
  if (d.status !== JobInstanceStatus.CANCELLED) busy.push(fresh);
  return d;
}

/** QUEUE: WAITING while fewer than the job's queueLimit fires wait (shards of one fire count once), else skipped. */
function queueOrSkip(def: JobDefinition, busy: JobInstance[]): OverlapDecision {
  const limit = def.queueLimit ?? BOUNDS.queueLimit.default;
  const queued = new Set(busy.filter((b) => b.status === JobInstanceStatus.WAITING).map((b) => b.fireTime)).size;
  if (queued < limit) return { status: JobInstanceStatus.WAITING, replace: [], note: undefined };
  return {
    status: JobInstanceStatus.CANCELLED,
    replace: [],
    note: `${QUEUE_FULL}: ${queued} fires already queued (queueLimit ${limit}); not run`,
  };
}
