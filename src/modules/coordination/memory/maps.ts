/** The set stored under `key`, created empty when missing. */
export function setOf<T>(map: Map<string, Set<T>>, key: string): Set<T> {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  return set;
}

/** The list stored under `key`, created empty when missing. */
export function listOf<T>(map: Map<string, T[]>, key: string): T[] {
  let list = map.get(key);
  if (!list) map.set(key, (list = []));
  return list;
}

/** Map size below which expired entries are not swept. */
export const MIN_SWEEP = 1024;

/**
 * Deletes the entries `expired` says are gone once the map has reached `threshold`; returns the next
 * threshold (twice what is left, at least {@link MIN_SWEEP}), so sweeping costs O(1) per insert on average.
 */
export function sweepWhenDoubled<V>(map: Map<string, V>, threshold: number, expired: (value: V) => boolean): number {
  if (map.size < threshold) return threshold;
  for (const [key, value] of map) if (expired(value)) map.delete(key);
  return Math.max(MIN_SWEEP, map.size * 2);
}
