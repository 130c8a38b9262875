import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { isUniqueViolation } from './db-errors.js';

/**
 * shell_identity I/O (docs/data-model.md): the uid each app's `shell` commands run as. Rows are only ever inserted;
 * the unique uid and the app id key make two racing inserts end with one row each, never one uid for two apps.
 */
@Injectable()
export class ShellIdentityRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The uid recorded for `appId`, or null. */
  async uidOf(appId: string): Promise<number | null> {
    const rows: Array<{ uid: number | string }> = await this.ds.query(
      'SELECT uid FROM shell_identity WHERE app_id = ?',
      [appId],
    );
    return rows.length ? Number(rows[0].uid) : null;
  }

  /**
   * A uid of `lo`..`hi` (inclusive) no row holds, or null when every one is taken: the next after the highest taken,
   * else the lowest free one (a range widened downwards, or rows an operator deleted).
   */
  async freeUid(lo: number, hi: number): Promise<number | null> {
    const [{ top }]: Array<{ top: number | string | null }> = await this.ds.query(
      'SELECT MAX(uid) AS top FROM shell_identity WHERE uid BETWEEN ? AND ?',
      [lo, hi],
    );
    if (top === null) return lo;
    if (Number(top) < hi) return Number(top) + 1;
    const atLo: unknown[] = await this.ds.query('SELECT uid FROM shell_identity WHERE uid = ?', [lo]);
    if (atLo.length === 0) return lo;
    const [{ gap }]: Array<{ gap: number | string | null }> = await this.ds.query(
      'SELECT MIN(t.uid) + 1 AS gap FROM shell_identity t WHERE t.uid BETWEEN ? AND ? ' +
        'AND NOT EXISTS (SELECT 1 FROM shell_identity s WHERE s.uid = t.uid + 1)',
      [lo, hi - 1],
    );
    return gap === null ? null : Number(gap);
  }

  /**
   * Records `uid` as `appId`'s. @returns false when a row already holds the app or the uid (another executor won a
   * race: read again). @throws any other database error.
   */
  async tryInsert(appId: string, uid: number, now: number): Promise<boolean> {
    try {
      await this.ds.query('INSERT INTO shell_identity (app_id, uid, created_at) VALUES (?, ?, ?)', [appId, uid, now]);
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }
}
