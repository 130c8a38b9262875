export { DataDirLockedError, LOCK_FILE, lockDataDir } from './data-dir-lock.js';
export { DataDirLockModule } from './data-dir-lock.module.js';
