import { DataSource, EntityManager, QueryRunner } from 'typeorm';

/** What one raw statement gave back: rows changed (writes) and rows read (SELECT). */
export interface StatementResult {
  affected?: number;
  records?: unknown[];
}

/** Multi-row statements are cut into groups of this many rows (far below MySQL's and SQLite's placeholder limits). */
export const STATEMENT_ROWS = 500;

/**
 * Runs one statement (`?` placeholders) inside `em` or on a pooled connection, returning the affected-row count
 * `ds.query` hides; for hot paths where the query builder costs too much CPU.
 */
export async function runStatement(
  ds: DataSource,
  em: EntityManager | undefined,
  sql: string,
  params: unknown[],
): Promise<StatementResult> {
  const runner: QueryRunner = em?.queryRunner ?? ds.createQueryRunner();
  try {
    const res = (await runner.query(sql, params, true)) as { affected?: number; records?: unknown[]; raw?: unknown };
    return { affected: res.affected, records: res.records ?? (Array.isArray(res.raw) ? res.raw : undefined) };
  } finally {
    if (!em?.queryRunner) await runner.release();
  }
}

/** `?, ?, …` (n placeholders). */
export function marks(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}

/** `INSERT IGNORE` (MySQL) or `INSERT OR IGNORE` (SQLite). */
export function insertIgnoreVerb(ds: DataSource): string {
  return ds.options.type === 'mysql' ? 'INSERT IGNORE' : 'INSERT OR IGNORE';
}
