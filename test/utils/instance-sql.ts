import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Logger } from '@nestjs/common';
import { DataSource, type Logger as TypeOrmLogger } from 'typeorm';
import {
  dataSourceOptions,
  type JobInstanceStatus as S,
  runMigrations,
  type StagedKind,
} from '../../src/modules/metadata/index.js';
import { JOB, NS, SQL_CASES } from './instance-sql-cases.js';

/** Where the reviewed SQL of the job_instance query objects lives, one file per object. */
export const SQL_DIR = fileURLToPath(new URL('../../src/modules/metadata/instances/sql/', import.meta.url));

export type Dialect = 'mysql' | 'sqlite';
const DIALECTS: Dialect[] = ['mysql', 'sqlite'];

/** One call's statements, by block head (`-- Class.method: what`), as the snapshot text shows them. */
type Blocks = Map<string, string>;

/** The snapshot file of query object `name` (`DispatchLedger` → `dispatch-ledger.sql`). */
export function snapshotFile(name: string): string {
  return join(SQL_DIR, `${name.replace(/[A-Z]/g, (c, i: number) => (i ? '-' : '') + c.toLowerCase())}.sql`);
}

/** Collects the statements a data source issues while `on`. */
class StatementLog implements TypeOrmLogger {
  on = false;
  readonly lines: Array<{ sql: string; params: unknown[] }> = [];
  logQuery(sql: string, params?: unknown[]): void {
    if (this.on && !/^(START TRANSACTION|BEGIN|COMMIT|ROLLBACK)/i.test(sql))
      this.lines.push({ sql, params: params ?? [] });
  }
  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}

/** One statement as the snapshots show it: whitespace collapsed, a line per clause, then its parameters. */
function render(sql: string, params: unknown[]): string {
  const text = sql
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/ (FROM|WHERE|SET|VALUES|ORDER BY|GROUP BY|LIMIT) /g, '\n  $1 ');
  return `${text};\n-- params: ${JSON.stringify(params)}`;
}

/** A migrated data source that logs its statements: MySQL at `mysqlUrl`, else SQLite in memory. */
async function open(log: StatementLog, mysqlUrl?: string): Promise<DataSource> {
  const database = mysqlUrl
    ? { type: 'mysql' as const, url: mysqlUrl }
    : { type: 'better-sqlite3' as const, path: ':memory:' };
  const ds = await new DataSource({ ...dataSourceOptions({ database }), logger: log }).initialize();
  await runMigrations(ds, { log: () => undefined } as unknown as Logger);
  return ds;
}

/**
 * Runs every case of SQL_CASES on MySQL at `mysqlUrl` (else SQLite in memory): the statements each call issued,
 * rendered, by object name and block head. Each call runs in a transaction its `em` belongs to.
 */
export async function generateSnapshots(mysqlUrl?: string): Promise<Map<string, Blocks>> {
  const log = new StatementLog();
  const ds = await open(log, mysqlUrl);
  const clean = () => ds.query('DELETE FROM job_instance WHERE namespace = ? OR job_id = ?', [NS, JOB]);
  const out = new Map<string, Blocks>();
  try {
    await clean();
    for (const { type, cases } of SQL_CASES) {
      const sut = new type(ds);
      const blocks: Blocks = new Map();
      for (const c of cases) {
        log.lines.length = 0;
        const qr = ds.createQueryRunner();
        await qr.startTransaction();
        try {
          await c.setup?.({ ds, em: qr.manager });
          log.on = true;
          await c.run(sut, { ds, em: qr.manager });
          log.on = false;
          await qr.commitTransaction();
        } finally {
          log.on = false;
          if (qr.isTransactionActive) await qr.rollbackTransaction();
          await qr.release();
        }
        const head = `-- ${type.name}.${c.method}${c.what ? `: ${c.what}` : ''}`;
        blocks.set(head, log.lines.map((l) => render(l.sql, l.params)).join('\n') || '-- (no statement)');
      }
      out.set(type.name, blocks);
    }
  } finally {
    await clean();
    await ds.destroy();
  }
  return out;
}

const HEADER =
  '-- The statements this job_instance query object issues, one block per call of test/utils/instance-sql-cases.ts;\n' +
  '-- a block that differs by dialect shows both. Written by the instance-sql tests with UPDATE_SQL_SNAPSHOTS=1\n' +
  '-- (SQLite: unit tier, MySQL: integration tier); they fail on any difference.';
const NOT_YET = '-- (not generated yet: run the other tier with UPDATE_SQL_SNAPSHOTS=1)';

/** A snapshot file's blocks, per dialect (a block shared by both is the same text under each). */
function parse(text: string): Map<string, Partial<Record<Dialect, string>>> {
  const out = new Map<string, Partial<Record<Dialect, string>>>();
  for (const block of text.split('\n\n').slice(1)) {
    const [head, ...lines] = block.replace(/\n$/, '').split('\n');
    const at = lines.findIndex((l) => l === '-- [mysql]');
    const sqliteAt = lines.findIndex((l) => l === '-- [sqlite]');
    if (at < 0) out.set(head, { mysql: lines.join('\n'), sqlite: lines.join('\n') });
    else
      out.set(head, { mysql: lines.slice(at + 1, sqliteAt).join('\n'), sqlite: lines.slice(sqliteAt + 1).join('\n') });
  }
  return out;
}

/** The file text of `blocks` generated on `dialect`, the other dialect's blocks taken from `committed`. */
function merge(dialect: Dialect, blocks: Blocks, committed: string | null): string {
  const other = DIALECTS.find((d) => d !== dialect) as Dialect;
  const kept = committed === null ? new Map() : parse(committed);
  const texts = [...blocks].map(([head, body]) => {
    const theirs = kept.get(head)?.[other] ?? NOT_YET;
    if (theirs === body) return `${head}\n${body}`;
    const by = { [dialect]: body, [other]: theirs } as Record<Dialect, string>;
    return `${head}\n-- [mysql]\n${by.mysql}\n-- [sqlite]\n${by.sqlite}`;
  });
  return `${HEADER}\n\n${texts.join('\n\n')}\n`;
}

/**
 * Compares the snapshots generated on `dialect` with the committed files, the other dialect's blocks as committed
 * (UPDATE_SQL_SNAPSHOTS=1: rewrites the files first). @returns the names of the objects whose file differs.
 */
export function compareSnapshots(dialect: Dialect, generated: Map<string, Blocks>): string[] {
  const differ: string[] = [];
  for (const [name, blocks] of generated) {
    const file = snapshotFile(name);
    const committed = existsSync(file) ? readFileSync(file, 'utf8') : null;
    const text = merge(dialect, blocks, committed);
    if (process.env.UPDATE_SQL_SNAPSHOTS === '1') writeFileSync(file, text);
    else if (committed !== text) differ.push(name);
  }
  return differ;
}
/** A status write of a snapshot's statement: the statuses its WHERE accepts, the one it sets, its staged value. */
interface StatusWrite {
  from: unknown[];
  to: unknown;
  staged: unknown;
}

/** `?` positions of `sql` that fall inside [start, end). */
function marksIn(sql: string, start: number, end: number): number[] {
  const out: number[] = [];
  for (let i = 0, n = 0; i < sql.length; i++)
    if (sql[i] === '?') {
      if (i >= start && i < end) out.push(n);
      n++;
    }
  return out;
}

/** Reads what an UPDATE of job_instance writes to `status` and `staged` (undefined: neither; null staged: NULL). */
function statusWriteOf(sql: string, params: unknown[]): (StatusWrite & { setsStatus: boolean }) | undefined {
  if (!/^UPDATE [`"]?job_instance[`"]? /.test(sql)) return undefined;
  const set = sql.indexOf(' SET ');
  const where = sql.indexOf(' WHERE ');
  const assigned = (col: string) => {
    // `staged = COALESCE(staged, ?)` writes ? where no mark is set (a handed-back fire keeps FIRE)
    const m = new RegExp(`[ ,][\`"]?${col}[\`"]? = (\\?|NULL|COALESCE\\(${col}, \\?\\))`).exec(sql.slice(set, where));
    if (!m) return undefined;
    return m[1] === 'NULL' ? null : params[marksIn(sql, set + m.index, set + m.index + m[0].length)[0]];
  };
  const to = assigned('status');
  const staged = assigned('staged');
  if (to === undefined && staged === undefined) return undefined;
  const from: unknown[] = [];
  const guard = /(?<![\w.])[`"]?status[`"]? (= \?|IN \((\?(, )?)+\))/g;
  for (const m of sql.slice(where).matchAll(guard))
    for (const k of marksIn(sql, where + m.index, where + m.index + m[0].length)) from.push(params[k]);
  return { from, to, staged, setsStatus: to !== undefined };
}

/** The state machine a snapshot is checked against: TRANSITIONS, and the writes that may leave a row staged. */
export interface StatusRules {
  canTransition(from: S, to: S): boolean;
  isStagingWrite(from: S, to: S, kind: StagedKind): boolean;
}

/**
 * Every statement of a snapshot text that writes job_instance.status or .staged, checked against the state machine:
 * a status write names its from-statuses in its WHERE, each `from → to` is in TRANSITIONS, and it clears the staged
 * mark or sets it as one of the staging writes; a write of the mark alone only clears it.
 * @returns one line per violation, naming the block.
 */
export function statusWriteViolations(text: string, rules: StatusRules): string[] {
  const out: string[] = [];
  let block = '';
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (/^-- [^[(]/.test(lines[i]) && !lines[i].startsWith('-- params:')) block = lines[i].slice(3);
    if (lines[i].startsWith('--') || lines[i].trim() === '') continue;
    let sql = lines[i];
    while (!sql.endsWith(';')) sql += ` ${lines[++i].trim()}`;
    const params = JSON.parse(lines[++i].replace('-- params: ', '')) as unknown[];
    const w = statusWriteOf(sql.slice(0, -1), params);
    if (!w) continue;
    const bad = (why: string) => out.push(`${block}: ${why}`);
    if (!w.setsStatus) {
      if (w.staged !== null) bad(`sets the staged mark (${String(w.staged)}) without a status write`);
      continue;
    }
    if (w.from.length === 0) bad(`writes status ${String(w.to)} without a from-status in its WHERE`);
    for (const f of w.from)
      if (!rules.canTransition(f as S, w.to as S)) bad(`${String(f)} -> ${String(w.to)} is not a transition`);
    const staging = (kind: unknown) => w.from.every((f) => rules.isStagingWrite(f as S, w.to as S, kind as StagedKind));
    if (w.staged === undefined) bad('writes status without writing the staged mark');
    else if (w.staged !== null && !staging(w.staged)) bad(`sets staged ${String(w.staged)}`);
  }
  return out;
}
