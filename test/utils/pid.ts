import { readFileSync } from 'node:fs';

/**
 * True when no live process has `pid`: kill(pid, 0) says ESRCH, or the process is a zombie (it has ended and
 * waits for its parent — init, for an orphan — to reap it; signal 0 still succeeds on it).
 */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    // Field 3 of /proc/<pid>/stat, after the parenthesised command name (which may itself hold spaces).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true; // gone between the two looks
  }
}
