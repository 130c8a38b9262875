import { JobDefinition, JobInstance, JobInstanceStatus, OverlapPolicy } from '../metadata/index.js';

/** What the overlap policy decided for one new fire. */
export interface OverlapDecision {
  /** Status the new row is written with: PENDING, WAITING (QUEUE) or CANCELLED (SKIP). */
  status: JobInstanceStatus.PENDING | JobInstanceStatus.WAITING | JobInstanceStatus.CANCELLED;
  /** Earlier unfinished instances to cancel after the commit (REPLACE). */
  replace: JobInstance[];
  /** Why the row is not PENDING, recorded in its `error`. */
  note?: string;
}

/**
 * Applies a job's overlap policy to a new fire (DESIGN §5 "Overlap"). `busy` holds the job's unfinished
 * instances, oldest first, including rows planned earlier in the same pass; the function appends the new
 * row's stand-in so that several fires of one pass (FIRE_ALL, backfill) see each other.
 * - ALLOW: always PENDING;
 * - SKIP: CANCELLED with a note while anything is unfinished (kept as a row, so it stays traceable);
 * - QUEUE: WAITING while anything is unfinished; released one at a time as predecessors end;
 * - REPLACE: PENDING, and every unfinished predecessor is cancelled.
 */
export function decideOverlap(def: JobDefinition, busy: JobInstance[], fresh: JobInstance): OverlapDecision {
  const unfinished = busy.filter((b) => b.status !== JobInstanceStatus.CANCELLED);
  // A run cancelled while RUNNING whose handler may still be stopping (its canceller set lease_until to the end of
  // the stop grace, DESIGN §7) still runs: a QUEUE fire made then started beside it, and a SKIP fire was not skipped.
  // Rows cancelled in this pass (REPLACE victims, SKIPs) never carry a lease.
  const running = [...unfinished, ...busy.filter((b) => b.status === JobInstanceStatus.CANCELLED && b.leaseUntil !== null)];
  let d: OverlapDecision;
  switch (running.length === 0 ? OverlapPolicy.ALLOW : def.overlapPolicy) {
    case OverlapPolicy.SKIP:
      d = { status: JobInstanceStatus.CANCELLED, replace: [], note: `OVERLAP_SKIP: fire of ${new Date(running[0].fireTime).toISOString()} still unfinished` };
      break;
    case OverlapPolicy.QUEUE:
      d = { status: JobInstanceStatus.WAITING, replace: [], note: undefined };
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
