import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runNode } from '../utils/run-node.js';

const ENSURE = join(process.cwd(), 'scripts/ensure-built.mjs');
const MAIN = join(process.cwd(), 'dist/src/main.js');
const STAMP = join(process.cwd(), 'dist/.build-stamp');

/**
 * `npm start` builds only when an input is newer than dist/, and a build never leaves dist/ missing or empty
 * (scripts/build-lib.mjs): a second process started from dist/ during a build finds every file (issue 14).
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

  it('should leave dist/ stale when a source changes while the build runs (the stamp is the build start)', async () => {
    const source = join(process.cwd(), 'src/modules/coordination/redis/lua/takeDue-1.lua');
    const now = new Date();
    utimesSync(source, now, now); // stale: this start builds
    const child = spawn(process.execPath, [ENSURE], { stdio: ['ignore', 'ignore', 'pipe'] });
    const done = new Promise<number | null>((resolve) => child.on('close', resolve));
    await new Promise<void>((resolve) => child.stderr.once('data', () => resolve())); // building now
    await new Promise((r) => setTimeout(r, 200));
    const edited = new Date();
    utimesSync(source, edited, edited); // an edit the running compiler may not have read
    expect(await done).toBe(0);
    const probe = "import { isStale } from './scripts/build-lib.mjs'; process.stdout.write(String(isStale()));";
    const r = await runNode('--input-type=module', ['-e', probe], {}, { cwd: process.cwd() });
    expect(r.stdout).toBe('true'); // the next npm start builds again
  }, 240_000);
});
