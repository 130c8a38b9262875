import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProcess } from '../utils/process-node.js';
import { runNode } from '../utils/run-node.js';
import { waitFor } from '../utils/test-node.js';

const MAIN = join(process.cwd(), 'dist/src/main.js');

/**
 * Standalone is one process per DATA_DIR (docs/architecture.md): a second process on the same directory stops at once
 * with a line naming the first — it used to become leader and start an executor on the same SQLite file
 * before failing on the port. A lock left by a killed process is taken over.
 */
describe('standalone DATA_DIR lock (real processes)', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'tw-lock-e2e-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('should refuse a second process on the same data directory, and let a new one in after the first was killed', async () => {
    const first = startProcess({ DATA_DIR: dir, PORT: '0' });
    try {
      await waitFor('the first process to listen', async () => first.output().includes('listening on'), 30_000, 100);
      const second = await runNode(MAIN, [], { DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'info' });
      expect(second.code).toBe(2);
      expect(second.stderr).toContain(`another Tickwheel process (pid ${first.pid}) is running on DATA_DIR ${dir}`);
      expect(second.stdout).not.toMatch(/became leader|executor .* up/);
      first.signal('SIGKILL');
      await first.exited;
      expect(readFileSync(join(dir, 'tickwheel.pid'), 'utf8')).toBe(String(first.pid)); // left behind by the kill
    } finally {
      await first.stop(2000);
    }
    const third = startProcess({ DATA_DIR: dir, PORT: '0' });
    try {
      await waitFor('the third process to listen', async () => third.output().includes('listening on'), 30_000, 100);
      expect(readFileSync(join(dir, 'tickwheel.pid'), 'utf8')).toBe(String(third.pid));
    } finally {
      await third.stop(10_000);
    }
    expect(existsSync(join(dir, 'tickwheel.pid'))).toBe(false); // released on a graceful stop
  }, 90_000);
});
