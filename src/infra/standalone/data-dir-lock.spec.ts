import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirLockedError, LOCK_FILE, lockDataDir } from './data-dir-lock.js';

describe('lockDataDir', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'tw-lock-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('should take a free directory, refuse it while held, and free it on release', () => {
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe(String(process.pid));
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dir)).toThrow(`pid ${process.pid}`);
    release();
    release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    lockDataDir(dir)();
  });

  it("should create a missing DATA_DIR owner-only (it holds secret.key and the database of every job's params)", () => {
    const fresh = join(dir, 'new', 'data');
    const release = lockDataDir(fresh);
    try {
      expect(statSync(fresh).mode & 0o777).toBe(0o700);
    } finally {
      release();
    }
  });

  it('should take over a lock left by a process that no longer runs', () => {
    writeFileSync(join(dir, LOCK_FILE), '2147483646'); // no such pid
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe(String(process.pid));
    release();
  });

  const pidOneAgain =
    'should take over a lock naming this pid that this process never took (pid 1 again after a container restart)';
  it(pidOneAgain, () => {
    writeFileSync(join(dir, LOCK_FILE), String(process.pid));
    const release = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError); // now it is ours
    release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it('should take over an unreadable lock file', () => {
    writeFileSync(join(dir, LOCK_FILE), 'garbage');
    lockDataDir(dir)();
  });

  it('should not remove a lock another process took after ours was taken over', () => {
    const release = lockDataDir(dir);
    writeFileSync(join(dir, LOCK_FILE), '1'); // someone else's now
    release();
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe('1');
  });
});
