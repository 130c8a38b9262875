import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';

/** Name of the lock file in DATA_DIR. */
export const LOCK_FILE = 'tickwheel.pid';

/** Another live process holds the data directory. */
export class DataDirLockedError extends Error {
  constructor(readonly dataDir: string, readonly pid: number) {
    super(`another Tickwheel process (pid ${pid}) is running on DATA_DIR ${dataDir}: standalone is one process per data directory (stop it, or set another DATA_DIR)`);
    this.name = 'DataDirLockedError';
  }
}

/**
 * Takes the standalone data directory for this process (DESIGN §1: standalone is one process; two on one
 * SQLite file would each lead, fire and run the same work). Creates `DATA_DIR/tickwheel.pid` exclusively
 * with this pid; a file left by a process that no longer runs (killed, crashed) is taken over. A file naming
 * this very pid that this process did not take is stale too: in a container the process is pid 1 at every
 * start, so after a kill or crash the file names the new process itself (it refused to start for ever).
 * @returns a release function (removes the file if it still names this process; idempotent).
 * @throws DataDirLockedError when a live process holds it (this one included, if it took it: release first).
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 }); // a new DATA_DIR is owner-only: it holds secret.key and every job's params
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
      if (Number.isInteger(holder) && holder > 0 && (ours || (holder !== process.pid && isAlive(holder)))) throw new DataDirLockedError(dataDir, holder);
      rmSync(path, { force: true }); // stale: its process is gone
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
      /* already gone */
    }
  };
}

/** Lock files this process took and has not released (absolute paths). */
const heldHere = new Set<string>();

/** True when a process with this pid exists (signal 0 checks without sending anything). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by someone else
  }
}
