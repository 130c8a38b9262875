import type { DuePair } from '../../metadata/index.js';

/** The key of an (app, host) pair in the sender's maps (app ids hold no newline). */
export const pairKey = (p: DuePair): string => `${p.appId}\n${p.host}`;

/** The (app, host) pair of a {@link pairKey}. */
export function pairOf(key: string): DuePair {
  const at = key.indexOf('\n');
  return { appId: key.slice(0, at), host: key.slice(at + 1) };
}

/**
 * Picks from `candidates` (oldest due first) at most `room` ids, at most `pairRoom(key)` per (app, host) pair, so
 * one app's backlog to a host takes only that app's share (docs/callbacks.md "Pool"). @returns the ids and the
 * pairs that reached their room (to leave out of the next candidate SELECT).
 */
export function pickClaims(
  candidates: ReadonlyArray<DuePair & { id: string }>,
  room: number,
  pairRoom: (key: string) => number,
): { ids: string[]; filled: DuePair[] } {
  const taken = new Map<string, number>();
  const ids: string[] = [];
  for (const c of candidates) {
    if (ids.length >= room) break;
    const key = pairKey(c);
    const n = taken.get(key) ?? 0;
    if (n >= pairRoom(key)) continue;
    taken.set(key, n + 1);
    ids.push(c.id);
  }
  const filled = [...taken.keys()].filter((k) => (taken.get(k) ?? 0) >= pairRoom(k));
  return { ids, filled: filled.map(pairOf) };
}
