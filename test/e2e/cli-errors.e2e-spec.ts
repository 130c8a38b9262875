import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SCOPES, Scope } from '../../src/modules/metadata/index.js';
import { ApiClientService } from '../../src/modules/openapi/index.js';
import { runNode, SETTING } from '../utils/run-node.js';
import {
  clusterEnv,
  MYSQL_URL,
  REDIS_URL,
  standaloneEnv,
  startNode,
  type TestNode,
  uniqueNamespace,
} from '../utils/test-node.js';

/** Runs a bundled CLI from dist/ (built by the global setup). */
const runCli = (script: string, args: string[], settings: Record<string, string>) =>
  runNode(join(process.cwd(), 'dist/src/bin', script), args, settings);

/** Runs `bash -c line` in the project directory with the product's settings cleared and `settings` added. */
function runShell(
  line: string,
  settings: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !SETTING.test(k)) env[k] = v;
  for (const k of Object.keys(env)) if (k.startsWith('npm_')) delete env[k]; // jest ran under npm: not this npm's
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', line], { env: { ...env, ...settings }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The bundled CLIs (a new user's first commands) fail with one line naming the problem, not a stack trace. */
describe('CLI errors', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'tw-cli-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('should say tw cannot reach the server, naming the URL, with exit code 2', async () => {
    const r = await runCli('tw.js', ['GET', '/api/nodes'], {
      TICKWHEEL_URL: 'http://127.0.0.1:59999',
      TICKWHEEL_APP_ID: 'a',
      TICKWHEEL_SECRET: 'b',
    });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      'tw: cannot reach http://127.0.0.1:59999: ECONNREFUSED (is the server up? TICKWHEEL_URL)',
    );
  });

  it("should say import-crontab cannot reach the server, naming the URL, with exit code 2 (it printed fetch's stack)", async () => {
    const file = join(dir, 'one.cron');
    writeFileSync(file, '0 1 * * * root /bin/true\n');
    const r = await runCli('import-crontab.js', [file], {
      TICKWHEEL_URL: 'http://127.0.0.1:59999',
      TICKWHEEL_APP_ID: 'a',
      TICKWHEEL_SECRET: 'b',
    });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      'import-crontab: cannot reach http://127.0.0.1:59999: ECONNREFUSED (is the server up? TICKWHEEL_URL)',
    );
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

  it('should give a client its own rate limit with --rate-limit / --rate-burst, and refuse a bad one with the usage', async () => {
    const appId = `cli-rl-${Date.now()}`;
    expect(
      (await runCli('create-app.js', [appId, '--rate-limit', '0', '--rate-burst', '7'], { DATA_DIR: dir })).code,
    ).toBe(0);
    const db = new Database(join(dir, 'tickwheel.sqlite'), { readonly: true });
    try {
      expect(db.prepare('SELECT rate_limit, rate_burst FROM api_client WHERE app_id = ?').get(appId)).toEqual({
        rate_limit: 0,
        rate_burst: 7,
      });
    } finally {
      db.close();
    }
    const bad = await runCli('create-app.js', [`${appId}-x`, '--rate-burst', '0'], { DATA_DIR: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /^create-app: --rate-burst takes a whole number of at least 1, got '0'\nusage: npm run create-app -- APP_ID .*\[--rate-limit N\] \[--rate-burst N\]\n/,
    );
  });

  describe('against a running server', () => {
    let node: TestNode;
    beforeAll(async () => (node = await startNode(standaloneEnv({ LOG_LEVEL: 'error' }))), 30_000);
    afterAll(async () => node?.close());

    it('should say under a 401 whose credentials tw signed with and what a 401 can mean', async () => {
      const r = await runCli('tw.js', ['GET', '/api/nodes'], {
        TICKWHEEL_URL: node.url,
        TICKWHEEL_APP_ID: 'nobody',
        TICKWHEEL_SECRET: 'wrong',
      });
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout)).toMatchObject({ status: 401 }); // stdout: the body only
      expect(r.stderr).toMatch(/^tw: HTTP 401 Unauthorized\n/);
      expect(r.stderr).toContain("tw: signed as app 'nobody' from TICKWHEEL_APP_ID / TICKWHEEL_SECRET: a wrong secret");
    });

    describe('npm run tw as the README prints it', () => {
      let creds: Record<string, string>;
      beforeAll(async () => {
        const appId = `cli-tw-${Date.now()}`;
        const { secret } = await node.app.get(ApiClientService).create(appId, { scopes: [...DEFAULT_SCOPES] });
        creds = { TICKWHEEL_URL: node.url, TICKWHEEL_APP_ID: appId, TICKWHEEL_SECRET: secret };
      });
      /** Runs a bash line in the project directory (npm reads its .npmrc there), with pipefail. */
      const sh = (line: string) => runShell(`set -o pipefail; ${line}`, creds);

      it('should pipe into jq: stdout holds the body only, exit 0 on a 2xx and 1 on a 404', async () => {
        const post = await sh(
          `npm run tw -- POST /api/tasks '{"requestId":"cli-jq-1","handler":"noop"}' | jq -r .status`,
        );
        expect([post.code, post.stdout, post.stderr]).toEqual([0, 'PENDING\n', '']);
        const got = await sh('npm run tw -- GET /api/tasks/cli-jq-1 | jq .');
        expect(got.code).toBe(0);
        expect(JSON.parse(got.stdout)).toMatchObject({ requestId: 'cli-jq-1' });
        const missing = await sh('npm run tw -- GET /api/tasks/no-such-task | jq -c .');
        expect(missing.code).toBe(1);
        expect(JSON.parse(missing.stdout)).toMatchObject({ status: 404 });
        expect(missing.stderr).toBe('tw: HTTP 404 Not Found\n');
      }, 60_000);

      it('should put the status line and headers on stderr with --include, and one compact line with --json', async () => {
        const r = await sh('npm run tw -- --include --json GET /api/tasks/cli-jq-1');
        expect(r.code).toBe(0);
        expect(r.stdout.split('\n')).toHaveLength(2); // one line, then the end
        expect(JSON.parse(r.stdout)).toMatchObject({ requestId: 'cli-jq-1' });
        expect(r.stderr).toMatch(/^HTTP 200 OK\n/);
        expect(r.stderr).toMatch(/^content-type: application\/json/m);
      }, 30_000);

      it('should print nothing on stdout for an answer without a body (204)', async () => {
        const code = `cli-del-${Date.now()}`;
        const job = { code, handler: 'noop', triggerType: 'CRON', triggerExpr: '0 0 1 1 *' };
        expect((await sh(`npm run tw -- POST /api/jobs '${JSON.stringify(job)}' >/dev/null`)).code).toBe(0);
        const del = await sh(`npm run tw -- --include DELETE /api/jobs/${code}`);
        expect([del.code, del.stdout]).toEqual([0, '']);
        expect(del.stderr).toMatch(/^HTTP 204 No Content\n/);
      }, 30_000);

      it('should send -H headers: an Idempotency-Key makes a repeated pause a replay', async () => {
        const code = `cli-idem-${Date.now()}`;
        const job = { code, handler: 'noop', triggerType: 'CRON', triggerExpr: '0 0 1 1 *' };
        expect((await sh(`npm run tw -- POST /api/jobs '${JSON.stringify(job)}' >/dev/null`)).code).toBe(0);
        const pause = `npm run tw -- --include -H 'Idempotency-Key: ${code}-k' POST /api/jobs/${code}/pause`;
        const first = await sh(pause);
        expect(first.code).toBe(0);
        expect(first.stderr).not.toMatch(/^idempotency-replayed:/m);
        const again = await sh(pause);
        expect([again.code, again.stdout]).toEqual([0, first.stdout]);
        expect(again.stderr).toMatch(/^idempotency-replayed: true$/m);
      }, 30_000);

      it('should preview a trigger with tw preview (POST /api/schedules/preview), flags as the README gives them', async () => {
        const r = await sh(
          "npm run tw -- --json preview '0 30 2 * * *' --tz America/New_York --from 2026-03-07T00:00:00Z -n 3 " +
            "| jq -r '.fireTimes[].fireTime'",
        );
        expect([r.code, r.stderr]).toEqual([0, '']);
        expect(r.stdout.trim().split('\n')).toHaveLength(3);
        expect(r.stdout).toMatch(/^2026-03-07T07:30:00\.000Z\n/);
        const bad = await sh("npm run tw -- preview 'not cron' --tz Mars/Olympus");
        expect(bad.code).toBe(1);
        expect(JSON.parse(bad.stdout)).toMatchObject({ status: 400 });
        expect(bad.stderr).toBe('tw: HTTP 400 Bad Request\n');
      }, 30_000);

      it('should print the usage on --help (exit 0) and on a usage error (stderr, exit 2)', async () => {
        const help = await sh('npm run tw -- --help');
        expect(help.code).toBe(0);
        expect(help.stdout).toMatch(/^usage: npm run tw -- /);
        expect(help.stdout).toContain("preview '<expr>'");
        const bad = await sh("npm run tw -- POST /api/tasks '{nope'");
        expect([bad.code, bad.stdout]).toEqual([2, '']);
        expect(bad.stderr).toMatch(/^tw: body is not valid JSON/);
      }, 30_000);
    });

    it('should end quietly when its reader closes the pipe early (import-crontab | head -1)', async () => {
      const appId = `cli-pipe-${Date.now()}`;
      const { secret } = await node.app
        .get(ApiClientService)
        .create(appId, { scopes: [...DEFAULT_SCOPES, Scope.SHELL] }); // imports make shell jobs
      const file = join(dir, 'big.cron');
      // 400 lines it refuses, each printed with its reason: far more than a pipe holds once head has gone.
      writeFileSync(
        file,
        Array.from({ length: 400 }, (_, i) => `61 * * * * root /bin/echo ${'x'.repeat(200)} ${i}`).join('\n'),
      );
      const script = join(process.cwd(), 'dist/src/bin/import-crontab.js');
      const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn('bash', ['-c', 'set -o pipefail; node "$0" "$1" | head -1', script, file], {
          env: { ...process.env, TICKWHEEL_URL: node.url, TICKWHEEL_APP_ID: appId, TICKWHEEL_SECRET: secret },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
        child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^.*big\.cron: 0 created, 0 updated, 400 line\(s\) not taken/);
    }, 30_000);
  });

  it('should answer tw pointed at an executor-only process with a 404 that says it has no api role', async () => {
    const node = await startNode(clusterEnv(uniqueNamespace('e2e-noapi'), { ROLES: 'executor', LOG_LEVEL: 'error' }));
    try {
      const r = await runCli('tw.js', ['GET', '/api/nodes'], {
        TICKWHEEL_URL: node.url,
        TICKWHEEL_APP_ID: 'a',
        TICKWHEEL_SECRET: 'b',
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toBe('tw: HTTP 404 Not Found\n');
      expect(JSON.parse(r.stdout)).toMatchObject({
        status: 404,
        detail: expect.stringContaining('ROLES do not include api'),
      });
      expect((await fetch(`${node.url}/api`, { method: 'POST' })).status).toBe(404);
      expect((await fetch(`${node.url}/health/live`)).status).toBe(200);
    } finally {
      await node.close();
    }
  }, 30_000);
});
