import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SETTING } from '../utils/run-node.js';
import { waitFor } from '../utils/test-node.js';

/** Starts `argv` in the repo with the product's settings cleared and `settings` added; stdout and stderr apart. */
function start(argv: string[], settings: Record<string, string>) {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !SETTING.test(k) && !k.startsWith('npm_')) env[k] = v;
  }
  const child = spawn(argv[0], argv.slice(1), { env: { ...env, ...settings }, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (c: Buffer) => (out.stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out.stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { child, out, exited };
}

/** Every stdout line parsed as JSON (a line that is not JSON fails the test, naming it). */
function jsonLines(stdout: string): Array<Record<string, unknown>> {
  return stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      try {
        return JSON.parse(l) as Record<string, unknown>;
      } catch {
        throw new Error(`a stdout line is not JSON: ${l}`);
      }
    });
}

/**
 * Start-up output (docs/observability.md "Logs"): every stdout line is a JSON log line, the listening banner among
 * them (with url, port, roles, swagger; shown at any LOG_LEVEL), and the first start's secret goes to stderr only.
 */
describe('start-up output of the standalone product', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'tw-startup-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['node dist/src/main.js', [process.execPath, 'dist/src/main.js']],
    ['npm start', ['npm', 'start']],
  ])(
    '%s: JSON lines on stdout only, the secret on stderr only',
    async (_name, argv) => {
      const p = start(argv, { DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' });
      try {
        await waitFor('the first-start credentials', async () => p.out.stderr.includes('Secret: '), 60_000, 100);
        await waitFor('the credentials log line', async () => p.out.stdout.includes('credentialsFile'), 10_000, 50);
      } finally {
        p.child.kill('SIGTERM');
        await p.exited;
      }
      const lines = jsonLines(p.out.stdout);
      const banner = lines.find((l) => typeof l.msg === 'string' && l.msg.includes(' listening on '));
      expect(banner).toMatchObject({
        level: 30,
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
        port: expect.any(Number),
        roles: ['api', 'scheduler', 'executor'],
        swagger: expect.stringMatching(/\/docs$/),
      });
      expect(lines.find((l) => l.credentialsFile === join(dir, 'credentials.json'))).toMatchObject({
        appId: 'standalone',
      });
      const { secret } = JSON.parse(readFileSync(join(dir, 'credentials.json'), 'utf8')) as { secret: string };
      expect(p.out.stdout).not.toContain(secret);
      expect(p.out.stderr).toContain(`Secret: ${secret}`);
    },
    90_000,
  );
});
