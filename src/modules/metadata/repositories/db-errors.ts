import { DB_DEADLINE_CODE } from '../db-deadline.js';

/** True when `err` is a unique-key violation (MySQL ER_DUP_ENTRY, SQLITE_CONSTRAINT_UNIQUE/PRIMARYKEY). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; driverError?: { code?: string; errno?: number } };
  const code = e?.driverError?.code ?? e?.code;
  return code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** True when `err` is a MySQL/MariaDB deadlock (1213) or lock-wait timeout (1205). */
export function isLockConflict(err: unknown): boolean {
  const e = err as { code?: string; errno?: number; driverError?: { code?: string; errno?: number } };
  const errno = e?.driverError?.errno ?? e?.errno;
  return errno === 1213 || errno === 1205;
}

/**
 * Driver codes of a lost, refused or exhausted connection (mysql2 / Node sockets), of a wait cut at
 * STORAGE_TIMEOUT_MS (db-deadline.ts) and of a busy SQLite file.
 */
const CONNECTION_CODES = new Set([
  DB_DEADLINE_CODE,
  'PROTOCOL_CONNECTION_LOST',
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EPIPE',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
]);

/**
 * True when running the same statements again may succeed: a lock conflict, a lost, killed, refused or exhausted
 * connection (mysql2 `fatal`, 1040, 1053, MariaDB 1927), a busy SQLite file. Retry only conditional writes.
 */
export function isTransientDbError(err: unknown): boolean {
  if (isLockConflict(err)) return true;
  type DriverError = { code?: string; errno?: number; fatal?: boolean };
  const e = err as DriverError & { driverError?: DriverError };
  const code = e?.driverError?.code ?? e?.code;
  const errno = e?.driverError?.errno ?? e?.errno;
  // mysql2 marks every error that ended the connection `fatal`; some carry no code.
  const fatal = e?.driverError?.fatal === true || e?.fatal === true;
  const lostConnection = (code !== undefined && CONNECTION_CODES.has(code)) || [1040, 1053, 1927].includes(errno ?? 0);
  return fatal || lostConnection;
}

type DriverFault = { code?: string; errno?: number; fatal?: boolean };

function driverFault(err: unknown): DriverFault & { driverError?: DriverFault } {
  return (err ?? {}) as DriverFault & { driverError?: DriverFault };
}

/**
 * True when MySQL/MariaDB cannot be reached: a connection refused, lost, reset, killed (1927), refused for too
 * many (1040) or at shutdown (1053), any error mysql2 marks `fatal` (the connection is gone), a wait cut at
 * STORAGE_TIMEOUT_MS. Not a lock conflict nor a busy SQLite file (the database answered). The HTTP edge answers
 * these with 503 STORAGE_UNAVAILABLE.
 */
export function isDbUnavailable(err: unknown): boolean {
  const e = driverFault(err);
  const driver = e.driverError;
  if (e.code === DB_DEADLINE_CODE || e.fatal === true || driver?.fatal === true) return true;
  // A bare socket code is not enough (an outbound call's ECONNREFUSED): only a TypeORM-wrapped driver error.
  if (!driver || driver.code === 'SQLITE_BUSY' || driver.code === 'SQLITE_LOCKED') return false;
  return (
    (driver.code !== undefined && CONNECTION_CODES.has(driver.code)) || [1040, 1053, 1927].includes(driver.errno ?? 0)
  );
}

/**
 * Runs `fn`, again after each transient error until `maxWaitMs` of back-off (10 ms doubling, ≤ 1 s a wait) is
 * spent, then throws the last error; any other error at once. `fn` must be safe to repeat. `elapsed`: the time
 * spent in the tries counts too (an API caller whose answer waits, a write bounded by a lease), so a database that
 * does not answer (each try cut at STORAGE_TIMEOUT_MS) fails it after one try past `maxWaitMs`, not after many.
 */
export async function withDbRetry<T>(
  fn: () => Promise<T>,
  maxWaitMs: number,
  { elapsed = false }: { elapsed?: boolean } = {},
): Promise<T> {
  const started = Date.now();
  let waited = 0;
  for (let wait = 10; ; wait = Math.min(wait * 2, 1000)) {
    try {
      return await fn();
    } catch (err) {
      const spent = elapsed ? Date.now() - started : waited;
      if (!isTransientDbError(err) || spent >= maxWaitMs) throw err;
      const pause = Math.min(wait, maxWaitMs - spent);
      waited += pause;
      await new Promise((r) => setTimeout(r, Math.max(1, pause)));
    }
  }
}
