import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runNode } from '../utils/run-node.js';
import { MYSQL_URL, REDIS_URL } from '../utils/test-node.js';

/** Runs a bundled CLI from dist/ (built by the global setup). */
const runCli = (script: string, args: string[], settings: Record<string, string>) => runNode(join(process.cwd(), 'dist/src/bin', script), args, settings);

/** The bundled CLIs (a new user's first commands) fail with one line naming the problem, not a stack trace. */
describe('CLI errors', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'tw-cli-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('should say tw cannot reach the server, naming the URL, with exit code 2', async () => {
    const r = await runCli('tw.js', ['GET', '/api/nodes'], { TICKWHEEL_URL: 'http://127.0.0.1:59999', TICKWHEEL_APP_ID: 'a', TICKWHEEL_SECRET: 'b' });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('tw: cannot reach http://127.0.0.1:59999: ECONNREFUSED (is the server up? TICKWHEEL_URL)');
  });

  it('should name the missing setting when create-app runs clustered without the secret key', async () => {
    const r = await runCli('create-app.js', ['x'], { DB_URL: MYSQL_URL, REDIS_URL, DATA_DIR: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('TICKWHEEL_SECRET_KEY');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('should say which store create-app wrote to', async () => {
    const r = await runCli('create-app.js', [`cli-${Date.now()}`], { DATA_DIR: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`standalone store (SQLite in ${dir}`);
    expect(r.stdout).toMatch(/^AppId: {2}cli-/);
  });
});
