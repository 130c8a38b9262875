/**
 * The rank of an id on its node's ready queue (docs/dispatch.md "Priorities"): lower is claimed first within its
 * app's turn. `readySince` (epoch ms) is when the row became ready (its due time, a fire's fire time); each
 * priority level (1-5) counts as `agingMs` of waiting. So an entry of priority p ready at t goes before every
 * entry of priority q ready after t + (q − p) × agingMs: a waiting entry gains a level per `agingMs`, fixed at
 * push time, and no priority starves a lower one for longer than (5 − 1) × agingMs of arrivals.
 */
export function readyRank(readySince: number, priority: number, agingMs: number): number {
  return readySince - priority * agingMs;
}

/** The ready item of a row with its rank (PRIORITY_AGING_MS). */
export function rankedItem(
  row: { id: string; appId: string; priority: number },
  readySince: number,
  agingMs: number,
): { id: string; appId: string; rank: number } {
  return { id: row.id, appId: row.appId, rank: readyRank(readySince, row.priority, agingMs) };
}
