import { DataSource } from 'typeorm';
import { SystemClock } from '../../src/common/index.js';
import { ShellIdentities, ShellIdentityError } from '../../src/modules/execution/builtin/shell-identities.js';
import { MIGRATIONS, ShellIdentityRepository } from '../../src/modules/metadata/index.js';
import { rejection } from '../utils/async.js';
import { MIGRATION_ENGINES, migratedTo, type MigrationDb } from '../utils/migration-db.js';

const RANGE = { lo: 2_000_000_000, hi: 2_000_065_535 };

/** One executor's allocator on `ds` (its own in-memory cache, as each executor process has). */
const executor = (ds: DataSource) => new ShellIdentities(new ShellIdentityRepository(ds), new SystemClock());

async function rows(ds: DataSource): Promise<Array<{ app_id: string; uid: number }>> {
  const all: Array<{ app_id: string; uid: number | string }> = await ds.query(
    'SELECT app_id, uid FROM shell_identity ORDER BY uid',
  );
  return all.map((r) => ({ app_id: r.app_id, uid: Number(r.uid) }));
}

/**
 * Each app's shell uid (docs/tenancy.md "Shell isolation"), on a fresh database of each engine: allocated once from
 * TICKWHEEL_SHELL_UID_RANGE and recorded in shell_identity; executors racing for the same apps and uids end with
 * one uid per app and one app per uid; a full range fails clearly; a uid is never handed to another app.
 */
describe.each(MIGRATION_ENGINES)('shell identities (%s)', (engine, makeDb) => {
  let db: MigrationDb;
  const sources: DataSource[] = [];
  beforeAll(async () => {
    db = await makeDb();
    // MariaDB: three executors, each with its own connections; SQLite (standalone): one process, one file.
    for (let i = 0; i < (engine === 'MariaDB' ? 3 : 1); i++) sources.push(await migratedTo(db));
  }, 60_000);
  afterAll(async () => {
    for (const ds of sources) await ds.destroy();
    await db?.drop();
  });
  beforeEach(async () => {
    await sources[0].query('DELETE FROM shell_identity');
  });

  it('should give the first app the range start, the next one the next uid, and an app always its own', async () => {
    const one = executor(sources[0]);
    expect(await one.uidOf('app-a', RANGE)).toBe(RANGE.lo);
    expect(await one.uidOf('app-b', RANGE)).toBe(RANGE.lo + 1);
    expect(await one.uidOf('app-a', RANGE)).toBe(RANGE.lo);
    expect(await executor(sources[0]).uidOf('app-b', RANGE)).toBe(RANGE.lo + 1); // another executor reads it
    expect(await one.uidOf('APP-A', RANGE)).toBe(RANGE.lo + 2); // app ids compare exactly
    expect(await rows(sources[0])).toEqual([
      { app_id: 'app-a', uid: RANGE.lo },
      { app_id: 'app-b', uid: RANGE.lo + 1 },
      { app_id: 'APP-A', uid: RANGE.lo + 2 },
    ]);
  });

  it('should never give two apps one uid, nor one app two uids, when executors race', async () => {
    const apps = Array.from({ length: 24 }, (_, i) => `race-${i}`);
    const executors = sources.flatMap((ds) => [executor(ds), executor(ds)]);
    // every executor allocates every app, each in its own order, all at once
    const got = await Promise.all(
      executors.flatMap((ex, e) =>
        apps.map((_, i) => apps[(i + e * 7) % apps.length]).map(async (app) => [app, await ex.uidOf(app, RANGE)]),
      ),
    );
    const uidOf = new Map<string, number>();
    for (const [app, uid] of got as Array<[string, number]>) {
      expect(uidOf.get(app) ?? uid).toBe(uid);
      uidOf.set(app, uid);
    }
    const stored = await rows(sources[0]);
    expect(stored).toHaveLength(apps.length);
    expect(new Set(stored.map((r) => r.uid)).size).toBe(apps.length);
    expect(new Map(stored.map((r) => [r.app_id, r.uid]))).toEqual(uidOf);
    for (const r of stored) expect(r.uid).toBeGreaterThanOrEqual(RANGE.lo);
    expect(Math.max(...stored.map((r) => r.uid))).toBe(RANGE.lo + apps.length - 1);
  }, 60_000);

  it('should fail clearly, naming the setting, once every uid of the range belongs to an app', async () => {
    const small = { lo: 70_000, hi: 70_001 };
    const one = executor(sources[0]);
    expect([await one.uidOf('full-a', small), await one.uidOf('full-b', small)]).toEqual([70_000, 70_001]);
    const e = await rejection(one.uidOf('full-c', small));
    expect(e).toBeInstanceOf(ShellIdentityError);
    expect(e.message).toBe(
      "TICKWHEEL_SHELL_UID_RANGE 70000-70001 is full: every uid of it belongs to an app (uids are never reused); widen the range to run app 'full-c's shell commands",
    );
    expect((await rows(sources[0])).map((r) => r.app_id)).toEqual(['full-a', 'full-b']);
  });

  it("should refuse an app's recorded uid that the range no longer holds, and fill a range widened downwards", async () => {
    const one = executor(sources[0]);
    expect(await one.uidOf('moved', { lo: 80_000, hi: 80_000 })).toBe(80_000);
    const e = await rejection(one.uidOf('moved', { lo: 90_000, hi: 90_009 }));
    expect(e).toBeInstanceOf(ShellIdentityError);
    expect(e.message).toMatch(/uid 80000 .*outside TICKWHEEL_SHELL_UID_RANGE 90000-90009/);
    expect(await one.uidOf('lower-1', { lo: 79_998, hi: 80_000 })).toBe(79_998);
    expect(await one.uidOf('lower-2', { lo: 79_998, hi: 80_000 })).toBe(79_999);
    await expect(one.uidOf('lower-3', { lo: 79_998, hi: 80_000 })).rejects.toThrow(/is full/);
  });

  it('should drop shell_identity on down, and create it again on up', async () => {
    const ours = MIGRATIONS.findIndex((m) => m.name === 'ShellIdentity1800000008000');
    // the later migrations first, then this one
    for (let i = MIGRATIONS.length - 1; i >= ours; i--) await sources[0].undoLastMigration({ transaction: 'each' });
    await expect(sources[0].query('SELECT uid FROM shell_identity')).rejects.toThrow(/shell_identity/);
    await sources[0].runMigrations({ transaction: 'each' });
    expect(await rows(sources[0])).toEqual([]);
  });
});
