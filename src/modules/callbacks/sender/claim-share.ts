/**
 * Picks from `candidates` (oldest due first) at most `room` ids, at most `hostRoom(host)` per host, so a host
 * with a long backlog takes only its share (docs/callbacks.md "Pool"). @returns the ids and the hosts that
 * reached their room (to leave out of the next candidate SELECT).
 */
export function pickClaims(
  candidates: ReadonlyArray<{ id: string; host: string }>,
  room: number,
  hostRoom: (host: string) => number,
): { ids: string[]; filled: string[] } {
  const taken = new Map<string, number>();
  const ids: string[] = [];
  for (const c of candidates) {
    if (ids.length >= room) break;
    const n = taken.get(c.host) ?? 0;
    if (n >= hostRoom(c.host)) continue;
    taken.set(c.host, n + 1);
    ids.push(c.id);
  }
  const filled = [...taken.keys()].filter((h) => (taken.get(h) ?? 0) >= hostRoom(h));
  return { ids, filled };
}
