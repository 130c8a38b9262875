import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { IdempotencyKey } from '../entities/index.js';
import { isUniqueViolation } from './db-errors.js';
import { marks, runStatement } from './raw-statement.js';
import { deleteByIds } from './retention-rows.js';

/** Who and what a key is taken for: the app's key, the request's fingerprint, and the new owner's token. */
export interface KeyClaim {
  namespace: string;
  appId: string;
  idemKey: string;
  fingerprint: string;
  request: string;
  owner: string;
  /** Epoch ms now, and when the key expires (now + IDEMPOTENCY_KEY_TTL_MS). */
  now: number;
  expiresAt: number;
}

/** The answer stored for a key: status, the headers kept and the JSON body text (null: no body). */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

/**
 * `idempotency_key` (docs/api.md "Idempotency"). Taking a key is one INSERT that the unique key
 * (namespace, app_id, idem_key) lets only one request win; every later write is conditional on the winner's
 * `owner` token, so a run whose key was taken over (expired, or abandoned by a dead node) writes nothing.
 */
@Injectable()
export class IdempotencyKeyRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Takes the key for `c.owner` (state RUNNING). @returns true when taken, false when the key has a row. */
  async insert(c: KeyClaim): Promise<boolean> {
    const sql =
      'INSERT INTO idempotency_key (namespace, app_id, idem_key, fingerprint, request, state, owner, started_at,' +
      " expires_at) VALUES (?, ?, ?, ?, ?, 'RUNNING', ?, ?, ?)";
    try {
      await runStatement(this.ds, undefined, sql, [
        c.namespace,
        c.appId,
        c.idemKey,
        c.fingerprint,
        c.request.slice(0, 300),
        c.owner,
        c.now,
        c.expiresAt,
      ]);
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  /** How many keys the app holds, expired ones not yet removed included (an index range of the unique key). */
  async countForApp(namespace: string, appId: string): Promise<number> {
    const [row] = (await this.ds.query('SELECT COUNT(*) AS n FROM idempotency_key WHERE namespace = ? AND app_id = ?', [
      namespace,
      appId,
    ])) as Array<{ n: number | string }>;
    return Number(row?.n ?? 0);
  }

  /** The row of an app's key, or null. */
  find(namespace: string, appId: string, idemKey: string): Promise<IdempotencyKey | null> {
    return this.ds.getRepository(IdempotencyKey).findOneBy({ namespace, appId, idemKey });
  }

  /**
   * Takes over the key of `c` while its owner is still `seenOwner` (an expired key, or a run abandoned past its
   * bound): RUNNING again for `c.owner`, no answer. @returns true when this call won it.
   */
  async takeOver(c: KeyClaim, seenOwner: string): Promise<boolean> {
    const sql =
      "UPDATE idempotency_key SET fingerprint = ?, request = ?, state = 'RUNNING', owner = ?, started_at = ?," +
      ` expires_at = ?, status = NULL, headers = NULL, body = NULL WHERE ${KEY} AND owner = ?`;
    const params = [c.fingerprint, c.request.slice(0, 300), c.owner, c.now, c.expiresAt, ...keyOf(c), seenOwner];
    return ((await runStatement(this.ds, undefined, sql, params)).affected ?? 0) > 0;
  }

  /** Stores the answer of `c.owner`'s run (state DONE). @returns false when the key is no longer its. */
  async complete(c: KeyClaim, answer: StoredAnswer): Promise<boolean> {
    const sql = `UPDATE idempotency_key SET state = 'DONE', status = ?, headers = ?, body = ? WHERE ${KEY} AND ${MINE}`;
    const params = [answer.status, JSON.stringify(answer.headers), answer.body, ...keyOf(c), c.owner];
    return ((await runStatement(this.ds, undefined, sql, params)).affected ?? 0) > 0;
  }

  /** Ids of up to `batch` keys of `namespace` that expired before `before` (epoch ms), oldest first. */
  async expiredBefore(namespace: string, before: number, batch: number): Promise<number[]> {
    const sql = 'SELECT id FROM idempotency_key WHERE expires_at < ? AND namespace = ? ORDER BY expires_at LIMIT ?';
    const rows = (await this.ds.query(sql, [before, namespace, batch])) as Array<{ id: number | string }>;
    return rows.map((r) => Number(r.id));
  }

  /**
   * Retention: deletes keys by id if they are still expired at `before` (a key taken again meanwhile stays), at
   * most `batch` per statement. @returns rows removed.
   */
  removeExpired(ids: number[], before: number, batch: number): Promise<number> {
    const sql = (n: number) => `DELETE FROM idempotency_key WHERE id IN (${marks(n)}) AND expires_at < ?`;
    return deleteByIds(this.ds, ids, batch, sql, [before]);
  }

  /** Releases the key of `c.owner`'s run (it failed): the next request with the key runs the route. */
  async release(c: KeyClaim): Promise<void> {
    await runStatement(this.ds, undefined, `DELETE FROM idempotency_key WHERE ${KEY} AND ${MINE}`, [
      ...keyOf(c),
      c.owner,
    ]);
  }
}

const KEY = 'namespace = ? AND app_id = ? AND idem_key = ?';
const MINE = "owner = ? AND state = 'RUNNING'";

function keyOf(c: KeyClaim): string[] {
  return [c.namespace, c.appId, c.idemKey];
}
