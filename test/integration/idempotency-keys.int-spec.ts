import { randomUUID } from 'node:crypto';
import { IdempotencyKeyRepository, type KeyClaim } from '../../src/modules/metadata/index.js';
import { type DbKind, type MetadataDb, openMetadataDb } from '../utils/metadata-db.js';
import { uniqueNamespace } from '../utils/test-node.js';

const NOW = Date.UTC(2026, 5, 1);
const HOUR = 3_600_000;

/**
 * `idempotency_key` on both engines (docs/api.md "Idempotency"): the unique key lets exactly one of concurrent
 * claims win, later writes need the winner's owner token, and retention removes only expired keys in batches.
 */
describe.each<DbKind>(['sqlite', 'mysql'])('idempotency keys (%s)', (kind) => {
  const ns = uniqueNamespace('int-idem');
  let db: MetadataDb;
  let keys: IdempotencyKeyRepository;

  beforeAll(async () => {
    db = await openMetadataDb(kind, ns);
    keys = new IdempotencyKeyRepository(db.ds);
  });
  afterAll(async () => {
    await db?.ds.query('DELETE FROM idempotency_key WHERE namespace = ?', [ns]);
    await db?.close();
  });

  const claim = (idemKey: string, extra: Partial<KeyClaim> = {}): KeyClaim => ({
    namespace: ns,
    appId: 'app-a',
    idemKey,
    fingerprint: 'f'.repeat(64),
    request: 'POST /api/jobs/j/trigger',
    owner: randomUUID(),
    now: NOW,
    expiresAt: NOW + HOUR,
    ...extra,
  });

  it('should let exactly one of 20 concurrent claims of a key win, per app', async () => {
    const key = `k-${randomUUID()}`;
    const won = await Promise.all(Array.from({ length: 20 }, () => keys.insert(claim(key))));
    expect(won.filter(Boolean)).toHaveLength(1);
    expect(await keys.insert(claim(key, { appId: 'app-b' }))).toBe(true);
    expect(await keys.insert(claim(key, { namespace: `${ns}-other` }))).toBe(true);
    await db.ds.query('DELETE FROM idempotency_key WHERE namespace = ?', [`${ns}-other`]);
  });

  it('should keep keys and app ids that differ only in case apart (keys are opaque, ids binary)', async () => {
    const key = `Key-${randomUUID()}`;
    expect(await keys.insert(claim(key))).toBe(true);
    expect(await keys.insert(claim(key.toLowerCase()))).toBe(true);
    expect(await keys.insert(claim(key, { appId: 'APP-A' }))).toBe(true);
    expect((await keys.find(ns, 'app-a', key.toUpperCase()))?.idemKey).toBeUndefined();
    expect((await keys.find(ns, 'app-a', key.toLowerCase()))?.idemKey).toBe(key.toLowerCase());
  });

  it('should store, release and take over only for the owner of the run', async () => {
    const mine = claim(`k-${randomUUID()}`);
    expect(await keys.insert(mine)).toBe(true);
    const stranger = { ...mine, owner: randomUUID() };
    expect(await keys.complete(stranger, { status: 202, headers: {}, body: '{"x":1}' })).toBe(false);
    await keys.release(stranger);
    expect((await keys.find(ns, 'app-a', mine.idemKey))?.state).toBe('RUNNING');
    const big = JSON.stringify({ fireTimes: Array.from({ length: 3000 }, (_, i) => new Date(i).toISOString()) });
    expect(await keys.complete(mine, { status: 200, headers: { location: '/x' }, body: big })).toBe(true);
    const row = await keys.find(ns, 'app-a', mine.idemKey);
    expect([row?.state, row?.status, row?.headers, row?.body]).toEqual(['DONE', 200, '{"location":"/x"}', big]);
    await keys.release(mine); // a stored answer is never released
    expect(await keys.find(ns, 'app-a', mine.idemKey)).not.toBeNull();
    const next = claim(mine.idemKey, { fingerprint: 'e'.repeat(64) });
    expect(await keys.takeOver(next, 'someone-else')).toBe(false);
    expect(await keys.takeOver(next, mine.owner)).toBe(true);
    const taken = await keys.find(ns, 'app-a', mine.idemKey);
    expect([taken?.state, taken?.owner, taken?.body, taken?.fingerprint]).toEqual([
      'RUNNING',
      next.owner,
      null,
      'e'.repeat(64),
    ]);
    await keys.release(next);
    expect(await keys.find(ns, 'app-a', mine.idemKey)).toBeNull();
  });

  it('should remove only expired keys, in batches, leaving a key taken again meanwhile', async () => {
    const expired = Array.from({ length: 5 }, () => claim(`old-${randomUUID()}`, { expiresAt: NOW - 1 }));
    for (const c of expired) await keys.insert(c);
    const fresh = claim(`new-${randomUUID()}`);
    await keys.insert(fresh);
    const first = await keys.expiredBefore(ns, NOW, 2);
    expect(first).toHaveLength(2);
    // One of them is taken again before the delete: it stays.
    const sql = 'SELECT idem_key, owner FROM idempotency_key WHERE id = ?';
    const [row] = (await db.ds.query(sql, [first[0]])) as Array<{ idem_key: string; owner: string }>;
    const retaken = claim(row.idem_key);
    expect(await keys.takeOver(retaken, row.owner)).toBe(true);
    expect(await keys.removeExpired(first, NOW, 2)).toBe(1);
    let removed = 1;
    for (;;) {
      const ids = await keys.expiredBefore(ns, NOW, 2);
      if (ids.length === 0) break;
      removed += await keys.removeExpired(ids, NOW, 2);
    }
    expect(removed).toBe(4);
    const left = (await db.ds.query('SELECT idem_key FROM idempotency_key WHERE namespace = ?', [ns])) as Array<{
      idem_key: string;
    }>;
    expect(left.map((r) => r.idem_key)).toEqual(expect.arrayContaining([fresh.idemKey, retaken.idemKey]));
    expect(left.filter((r) => r.idem_key.startsWith('old-'))).toHaveLength(1);
  });
});
