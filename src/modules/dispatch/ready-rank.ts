/**
 * An id's rank on its node's queue, lowest first in its app (docs/dispatch.md "Priorities"): ready time (epoch ms)
 * less `agingMs` per priority level, so waiting `agingMs` is worth one level (aging: no priority starves).
 */
export function readyRank(readySince: number, priority: number, agingMs: number): number {
  return readySince - priority * agingMs;
}

export function rankedItem(
  row: { id: string; appId: string; priority: number },
  readySince: number,
  agingMs: number,
): { id: string; appId: string; rank: number } {
  return { id: row.id, appId: row.appId, rank: readyRank(readySince, row.priority, agingMs) };
}
