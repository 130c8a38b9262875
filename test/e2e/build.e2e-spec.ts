import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runNode } from '../utils/run-node.js';

const ENSURE = join(process.cwd(), 'scripts/ensure-built.mjs');
const MAIN = join(process.cwd(), 'dist/src/main.js');
const STAMP = join(process.cwd(), 'dist/.build-stamp');

/**
 * `npm start` builds only when an input is newer than dist/, and a build never leaves dist/ missing or empty
 * (scripts/build-lib.mjs): a second process started from dist/ during a build finds every file.
 */
describe('the build of dist/ (npm start, scripts/ensure-built.mjs)', () => {
  it('should not build when dist/ is up to date (the global setup built it)', async () => {
    const before = statSync(STAMP).mtimeMs;
    const r = await runNode(ENSURE, [], {}, { cwd: process.cwd() });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
    expect(statSync(STAMP).mtimeMs).toBe(before);
  });

  it('should rebuild after a *.lua asset changed, with dist/src/main.js there and whole all along', async () => {
    const lua = join(process.cwd(), 'src/modules/coordination/redis/lua/takeDue-1.lua');
    const now = new Date();
    utimesSync(lua, now, now); // newer than the stamp: stale
    const orphan = join(process.cwd(), 'dist/src/orphan-of-an-old-build.js');
    writeFileSync(orphan, '// no source has this output\n');
    const mainBytes = readFileSync(MAIN).length;
    const child = spawn(process.execPath, [ENSURE], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const done = new Promise<number | null>((resolve) => child.on('close', resolve));
    let polls = 0;
    let finished = false;
    void done.then(() => (finished = true));
    while (!finished) {
      // What a process started now would find: the entry file whole, the tree not empty.
      expect(readFileSync(MAIN).length).toBe(mainBytes);
      expect(readdirSync(join(process.cwd(), 'dist/src')).length).toBeGreaterThan(0);
      polls++;
      await new Promise((r) => setTimeout(r, 2));
    }
    expect(await done).toBe(0);
    expect(stdout).toBe(''); // stdout of `npm start` is for JSON log lines only
    expect(stderr).toContain('[ensure-built] sources are newer than dist/: building');
    expect(polls).toBeGreaterThan(10);
    expect(existsSync(orphan)).toBe(false);
    expect(statSync(STAMP).mtimeMs).toBeGreaterThanOrEqual(now.getTime());
    expect(existsSync(join(process.cwd(), 'dist/src/modules/coordination/redis/lua/takeDue-1.lua'))).toBe(true);
  }, 240_000);

  it('should stay stale when a source is saved while the build runs (the stamp is dated when the build began)', async () => {
    const lua = join(process.cwd(), 'src/modules/coordination/redis/lua/takeDue-1.lua');
    utimesSync(lua, new Date(), new Date()); // stale: ensure-built builds
    const child = spawn(process.execPath, [ENSURE], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    let closed = false;
    const done = new Promise<number | null>((resolve) => child.on('close', resolve)).finally(() => (closed = true));
    while (!stderr.includes('[ensure-built]') && !closed) await new Promise((r) => setTimeout(r, 2));
    expect(stderr).toContain('[ensure-built] sources are newer than dist/: building');
    // A second after the build began, well before tsc ends (tens of seconds): an editor saves a source.
    await new Promise((r) => setTimeout(r, 1000));
    const saved = new Date();
    utimesSync(lua, saved, saved);
    expect(await done).toBe(0);
    // isStale()'s rule (scripts/build-lib.mjs): the next `npm start` must build again.
    expect(statSync(STAMP).mtimeMs).toBeLessThan(statSync(lua).mtimeMs);
    // The save changed no byte, so the dist/ just built is current: mark it so for the suites after this one.
    utimesSync(STAMP, new Date(), new Date());
  }, 240_000);
});
