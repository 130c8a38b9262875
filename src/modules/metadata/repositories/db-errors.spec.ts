import { isDbUnavailable, isLockConflict, isTransientDbError, isUniqueViolation, withDbRetry } from './db-errors.js';

describe('db-errors', () => {
  it('should tell a MySQL deadlock or lock wait timeout from other errors', () => {
    expect(isLockConflict({ driverError: { errno: 1213, code: 'ER_LOCK_DEADLOCK' } })).toBe(true);
    expect(isLockConflict({ errno: 1205 })).toBe(true);
    expect(isLockConflict({ driverError: { errno: 1062, code: 'ER_DUP_ENTRY' } })).toBe(false);
    expect(isLockConflict(new Error('boom'))).toBe(false);
    expect(isLockConflict(undefined)).toBe(false);
  });

  it('should tell a unique violation on either database', () => {
    expect(isUniqueViolation({ driverError: { code: 'ER_DUP_ENTRY' } })).toBe(true);
    expect(isUniqueViolation({ code: 'SQLITE_CONSTRAINT_UNIQUE' })).toBe(true);
    expect(isUniqueViolation({ code: 'ER_LOCK_DEADLOCK' })).toBe(false);
  });

  it('should count lost or exhausted connections and lock conflicts as transient, nothing else', () => {
    expect(isTransientDbError({ errno: 1213 })).toBe(true);
    expect(isTransientDbError({ code: 'PROTOCOL_CONNECTION_LOST' })).toBe(true);
    expect(isTransientDbError({ driverError: { errno: 1040, code: 'ER_CON_COUNT_ERROR' } })).toBe(true);
    expect(isTransientDbError({ code: 'SQLITE_BUSY' })).toBe(true);
    expect(isTransientDbError({ driverError: { errno: 1927, code: 'ER_CONNECTION_KILLED' } })).toBe(true);
    const closed = Object.assign(new Error("Can't add new command when connection is in closed state"), {
      fatal: true,
    });
    expect(isTransientDbError({ driverError: closed })).toBe(true);
    expect(isTransientDbError({ driverError: { code: 'ER_DUP_ENTRY', errno: 1062 } })).toBe(false);
    expect(isTransientDbError(new Error('syntax'))).toBe(false);
  });

  it('should retry transient errors until they stop, and throw others at once', async () => {
    let calls = 0;
    const deadlockedTwice = async () => (++calls < 3 ? Promise.reject({ errno: 1213 }) : 'ok');
    await expect(withDbRetry(deadlockedTwice, 1000)).resolves.toBe('ok');
    expect(calls).toBe(3);
    calls = 0;
    await expect(
      withDbRetry(async () => {
        calls++;
        throw new Error('bad sql');
      }, 1000),
    ).rejects.toThrow('bad sql');
    expect(calls).toBe(1);
  });

  it('should give up after the wait budget and throw the last transient error', async () => {
    let calls = 0;
    const started = Date.now();
    const reset = async () => {
      calls++;
      throw Object.assign(new Error('gone'), { code: 'ECONNRESET' });
    };
    await expect(withDbRetry(reset, 100)).rejects.toThrow('gone');
    expect(calls).toBeGreaterThan(2);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('should count the time of the tries when told (elapsed): a try cut at the deadline runs once', async () => {
    let calls = 0;
    const slowCut = async () => {
      calls++;
      await new Promise((r) => setTimeout(r, 150));
      throw Object.assign(new Error('cut'), { code: 'TW_DB_DEADLINE' });
    };
    await expect(withDbRetry(slowCut, 100, { elapsed: true })).rejects.toThrow('cut');
    expect(calls).toBe(1);
    calls = 0;
    await expect(withDbRetry(slowCut, 40)).rejects.toThrow('cut');
    expect(calls).toBeGreaterThan(2);
  });

  it('should call a database unreachable only for a connection fault of the driver, never a bare socket code', () => {
    expect(isDbUnavailable({ driverError: { code: 'ECONNREFUSED', fatal: true } })).toBe(true);
    expect(isDbUnavailable({ driverError: { code: 'PROTOCOL_CONNECTION_LOST' } })).toBe(true);
    expect(isDbUnavailable(Object.assign(new Error('cut'), { code: 'TW_DB_DEADLINE' }))).toBe(true);
    expect(isDbUnavailable(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe(false);
    expect(isDbUnavailable({ driverError: { code: 'ER_DUP_ENTRY', errno: 1062 } })).toBe(false);
    expect(isDbUnavailable({ driverError: { code: 'SQLITE_BUSY' } })).toBe(false);
  });
});
