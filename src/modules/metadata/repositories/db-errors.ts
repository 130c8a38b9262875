/** True when `err` is a unique-key violation on MySQL/MariaDB (ER_DUP_ENTRY) or SQLite (SQLITE_CONSTRAINT_UNIQUE/PRIMARYKEY). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; driverError?: { code?: string; errno?: number } };
  const code = e?.driverError?.code ?? e?.code;
  return code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** True when `err` is a MySQL/MariaDB deadlock or lock-wait timeout (ER_LOCK_DEADLOCK 1213, ER_LOCK_WAIT_TIMEOUT 1205): retry the statement. */
export function isLockConflict(err: unknown): boolean {
  const e = err as { code?: string; errno?: number; driverError?: { code?: string; errno?: number } };
  const errno = e?.driverError?.errno ?? e?.errno;
  return errno === 1213 || errno === 1205;
}

/** Driver codes of a lost, refused or exhausted connection (mysql2 / Node sockets) and of a busy SQLite file. */
const CONNECTION_CODES = new Set([
  'PROTOCOL_CONNECTION_LOST', 'ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'ER_CON_COUNT_ERROR', 'ER_SERVER_SHUTDOWN',
  'PROTOCOL_SEQUENCE_TIMEOUT', 'SQLITE_BUSY', 'SQLITE_LOCKED',
]);

/**
 * True when running the same statement(s) again may succeed: a lock conflict ({@link isLockConflict}), or a
 * connection that was lost, killed, refused or exhausted (mysql2 `fatal` errors, MySQL 1040 too many
 * connections, 1053 shutdown, MariaDB 1927 connection killed), or a busy SQLite file. Callers retry only writes that are conditional, so a retry after an unknown commit
 * changes nothing twice.
 */
export function isTransientDbError(err: unknown): boolean {
  if (isLockConflict(err)) return true;
  const e = err as { code?: string; errno?: number; fatal?: boolean; driverError?: { code?: string; errno?: number; fatal?: boolean } };
  const code = e?.driverError?.code ?? e?.code;
  const errno = e?.driverError?.errno ?? e?.errno;
  // mysql2 marks every error that ended the connection `fatal` (some, like a command on a closed connection, carry no code).
  const fatal = e?.driverError?.fatal === true || e?.fatal === true;
  return fatal || (code !== undefined && CONNECTION_CODES.has(code)) || errno === 1040 || errno === 1053 || errno === 1927;
}

/**
 * Runs `fn`, and again after a transient database error ({@link isTransientDbError}) until `maxWaitMs` of
 * back-off (10 ms doubling, at most 1 s per wait) is spent; then the last error is thrown. Any other
 * error is thrown at once. `fn` must be safe to repeat (conditional writes, or a whole transaction).
 */
export async function withDbRetry<T>(fn: () => Promise<T>, maxWaitMs: number): Promise<T> {
  let waited = 0;
  for (let wait = 10; ; wait = Math.min(wait * 2, 1000)) {
    try {
      return await fn();
    } catch (err) {
      if (!isTransientDbError(err) || waited >= maxWaitMs) throw err;
      const pause = Math.min(wait, maxWaitMs - waited);
      waited += pause;
      await new Promise((r) => setTimeout(r, Math.max(1, pause)));
    }
  }
}
