import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';

/** Name of the lock file in DATA_DIR. */
export const LOCK_FILE = 'tickwheel.pid';

/** Another live process holds the data directory. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `another Tickwheel process (pid ${pid}) is running on DATA_DIR ${dataDir}: ` +
        'standalone is one process per data directory (stop it, or set another DATA_DIR)',
    );
    this.name = 'DataDirLockedError';
  }
}

/**
 * Takes DATA_DIR for this process by creating `DATA_DIR/tickwheel.pid` exclusively (two standalone processes on one
 * SQLite file would each lead, fire and run the same work). A stale file is taken over: its process is gone, or it
 * names this pid but was not taken here (a container's process is pid 1 at every start).
 * @returns a release function: removes the file if it still names this process (idempotent).
 * @throws DataDirLockedError when a live process holds it, this one included (release first).
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 }); // owner-only: secret.key, every job's params
  const path = resolve(dataDir, LOCK_FILE);
  for (let tries = 0; ; tries++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || tries > 0) throw err;
      const holder = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
      const ours = holder === process.pid && heldHere.has(path);
      const valid = Number.isInteger(holder) && holder > 0;
      if (valid && (ours || (holder !== process.pid && isAlive(holder)))) throw new DataDirLockedError(dataDir, holder);
      rmSync(path, { force: true });
    }
  }
  heldHere.add(path);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    heldHere.delete(path);
    try {
      if (readFileSync(path, 'utf8').trim() === String(process.pid)) rmSync(path, { force: true });
    } catch {
      // already gone
    }
  };
}

/** Lock files this process took and has not released (absolute paths). */
const heldHere = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0); // signal 0 checks the pid exists, sends nothing
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by someone else
  }
}
