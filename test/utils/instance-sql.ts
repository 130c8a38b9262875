import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Logger } from '@nestjs/common';
import { DataSource, EntityManager, type Logger as TypeOrmLogger } from 'typeorm';
import {
  AdmissionInstances,
  dataSourceOptions,
  DispatchLedger,
  ExecutionInstances,
  FireLedger,
  InstanceIntake,
  InstanceReads,
  InstanceRetention,
  InstanceTransitions,
  JobInstance,
  JobInstanceStatus as S,
  newJobInstance,
  ReconcileInstances,
  runMigrations,
  StagedInstances,
  StagedKind,
  TriggerSource,
} from '../../src/modules/metadata/index.js';

/** Where the reviewed SQL of the job_instance query objects lives, one file per object and dialect. */
export const SQL_DIR = fileURLToPath(new URL('../../src/modules/metadata/instances/sql/', import.meta.url));

export type Dialect = 'mysql' | 'sqlite';

/** Fixed arguments: the snapshots hold no id, time or random value that changes between runs. */
const NS = 'tw-sql-snapshot';
const NOW = 1_800_000_000_000;
const JOB = '00000000-0000-7000-8000-00000000000j';
const NODE = 'node-1';
const id = (n: number) => `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`;

/** A row of the snapshot namespace: instance `n` of JOB, PENDING, fired at NOW + `fire` ms, with `patch`. */
function row(n: number, patch: Partial<JobInstance> = {}, fire = 0): JobInstance {
  const fields = { namespace: NS, appId: 'app-1', handler: 'h', fireTime: NOW + fire, dueAt: NOW + fire };
  const fresh = newJobInstance({ ...fields, jobId: JOB, triggerSource: TriggerSource.SCHEDULE }, NOW - 2500);
  return Object.assign(fresh, { id: id(n), requestId: `req-${n}`, traceId: `trace-${n}`, ...patch });
}

/** What a case gets: the query objects of the data source and a transaction for the methods that take one. */
export interface SqlCaseContext {
  ds: DataSource;
  em: EntityManager;
}

/** One call of a method (`what` says which case it shows), after `setup` (not in the snapshot) wrote its rows. */
type Case<T> = {
  method: keyof T & string;
  what?: string;
  setup?(ctx: SqlCaseContext): Promise<unknown>;
  run(sut: T, ctx: SqlCaseContext): Promise<unknown>;
};
/** A query object's class and its calls. */
export interface QueryObjectCases<T = unknown> {
  type: new (ds: DataSource) => T;
  cases: Array<Case<T>>;
}
const object = <T>(type: new (ds: DataSource) => T, cases: Array<Case<T>>) =>
  ({ type, cases }) as unknown as QueryObjectCases;

const tx = <T>(ctx: SqlCaseContext, fn: (em: EntityManager) => Promise<T>) => fn(ctx.em);
const claimed = { id: id(90), attempt: 1, fencingToken: 0 } as JobInstance;

/** Each query object with one or more calls per public method, in file order; the rows they need come first. */
export const SQL_CASES: QueryObjectCases[] = [
  object(InstanceIntake, [
    {
      method: 'insertOrGet',
      what: 'a new task, then another with its request id',
      run: async (s) => [await s.insertOrGet(row(1)), await s.insertOrGet(row(2, { requestId: 'req-1' }))],
    },
    {
      method: 'insertOrGetMany',
      what: 'two new tasks, then one of them again with a new one',
      run: async (s) => [
        await s.insertOrGetMany([row(3, { jobId: null }), row(4, { jobId: null })]),
        await s.insertOrGetMany([row(5, { requestId: 'req-3', jobId: null }), row(6, { jobId: null })]),
      ],
    },
    { method: 'findByRequest', run: (s) => s.findByRequest('app-1', 'req-1') },
  ]),
  object(FireLedger, [
    {
      method: 'insertIgnore',
      what: 'a fire staged ahead of its time',
      run: (s, c) => tx(c, (em) => s.insertIgnore(em, [row(10, { staged: StagedKind.FIRE }, 5000)])),
    },
    { method: 'existingIds', run: (s, c) => tx(c, (em) => s.existingIds(em, [id(10), id(11)])) },
    { method: 'unfinishedOfJobs', run: (s, c) => tx(c, (em) => s.unfinishedOfJobs(em, [JOB], NOW)) },
    { method: 'latestScheduledFire', run: (s, c) => tx(c, (em) => s.latestScheduledFire(em, JOB)) },
    { method: 'deleteFutureFires', run: (s, c) => tx(c, (em) => s.deleteFutureFires(em, JOB, NOW)) },
  ]),
  object(StagedInstances, [
    {
      method: 'findStaged',
      setup: (c) => new FireLedger(c.ds).insertIgnore(c.em, [row(20, { staged: StagedKind.FIRE }, -9000)]),
      run: (s) => s.findStaged(NS, { dueAt: NOW - 5000, id: '' }, 100),
    },
    { method: 'findUnreleasedFires', run: (s) => s.findUnreleasedFires(NS, NOW - 5000, 100) },
    { method: 'deleteUnreleasedFires', run: (s, c) => tx(c, (em) => s.deleteUnreleasedFires(em, [id(20), id(21)])) },
  ]),
  object(DispatchLedger, [
    { method: 'dispatchMany', what: 'rows taken meanwhile', run: (s) => s.dispatchMany([id(30), id(31)], NODE, NOW) },
    { method: 'stageMany', what: 'rows taken meanwhile', run: (s) => s.stageMany([id(30), id(31)], NODE, NOW) },
    { method: 'clearStaged', run: (s) => s.clearStaged([id(30), id(31)]) },
  ]),
  object(ExecutionInstances, [
    {
      method: 'claimDispatched',
      what: 'a row taken meanwhile',
      run: (s) => s.claimDispatched(undefined, [claimed], NODE, NOW, NOW + 60_000),
    },
    {
      method: 'succeedMany',
      what: 'a row taken meanwhile',
      run: (s) => s.succeedMany(undefined, [{ id: id(90), attempt: 1, fencingToken: 1, result: { ok: true } }], NOW),
    },
    { method: 'renewLease', run: (s) => s.renewLease(id(90), 1, NOW + 60_000, NOW) },
    {
      method: 'writeCheckpoint',
      run: (s) => s.writeCheckpoint({ id: id(90), attempt: 1, fencingToken: 1, json: '{}', at: NOW, leaseUntil: NOW }),
    },
    { method: 'readCheckpoints', run: (s) => s.readCheckpoints(undefined, [id(90)]) },
    {
      method: 'writeProgress',
      run: (s) => s.writeProgress([{ instanceId: id(90), fencingToken: 1, progress: 0.5, note: null, at: NOW }]),
    },
    { method: 'notRunningAnyMore', run: (s) => s.notRunningAnyMore([{ id: id(90), fencingToken: 1 }]) },
  ]),
  object(AdmissionInstances, [
    { method: 'countOfJob', run: (s) => s.countOfJob(JOB, [S.DISPATCHED, S.RUNNING], NOW, NOW) },
    { method: 'findOldestWaiting', run: (s) => s.findOldestWaiting(JOB) },
    { method: 'clearCancelledLease', run: (s) => s.clearCancelledLease(id(90), 1) },
    { method: 'leaseUntilOf', run: (s) => s.leaseUntilOf(id(90)) },
    { method: 'findStopping', run: (s) => s.findStopping([JOB], NOW) },
    { method: 'idsInStatus', run: (s) => s.idsInStatus([id(90)], [S.WAITING, S.SUCCESS]) },
    { method: 'findSlotHolders', run: (s) => s.findSlotHolders(NS, 100, [JOB], id(1)) },
  ]),
  object(ReconcileInstances, [
    { method: 'findPendingDue', run: (s) => s.findPendingDue(NS, NOW, 100) },
    { method: 'findExpiredLeases', run: (s) => s.findExpiredLeases(NS, NOW, 100) },
    { method: 'findDispatchedRefsBefore', run: (s) => s.findDispatchedRefsBefore(NS, NOW, 100) },
    { method: 'nodesWithWork', run: (s) => s.nodesWithWork(NS) },
    { method: 'jobsWithWaiting', run: (s) => s.jobsWithWaiting(NS, 100, JOB) },
  ]),
  object(InstanceReads, [
    { method: 'findById', run: (s) => s.findById(id(1)) },
    { method: 'findByIds', run: (s) => s.findByIds([id(1), id(3)]) },
    { method: 'findMany', run: (s) => s.findMany([id(1), id(3)]) },
    { method: 'findOnNode', run: (s) => s.findOnNode(NODE, [S.DISPATCHED, S.RUNNING], 100) },
    { method: 'listByJob', run: (s) => s.listByJob(JOB, 0, 20, { fireTime: NOW, shardIndex: 0 }) },
    { method: 'countByJob', run: (s) => s.countByJob(JOB) },
    { method: 'countUnfinishedOfApp', run: (s) => s.countUnfinishedOfApp('app-1') },
  ]),
  object(InstanceTransitions, [
    {
      method: 'transition',
      what: 'DISPATCHED → PENDING guarded by attempt, token and node',
      run: (s) => s.transition(id(1), S.DISPATCHED, S.PENDING, { attempt: 1, fencingToken: 0, nodeId: NODE }, {}, NOW),
    },
  ]),
  object(InstanceRetention, [
    { method: 'finishedBefore', run: (s) => s.finishedBefore(NS, NOW, 100) },
    { method: 'removeFinished', run: (s) => s.removeFinished([id(1), id(3)]) },
  ]),
];

/** The snapshot file of query object `name` in `dialect`. */
export function snapshotFile(name: string, dialect: Dialect): string {
  return join(SQL_DIR, `${name.replace(/[A-Z]/g, (c, i: number) => (i ? '-' : '') + c.toLowerCase())}.${dialect}.sql`);
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
 * Runs every case of {@link SQL_CASES} on MySQL at `mysqlUrl` (else SQLite in memory) and renders the statements
 * each object issued: its file's text, by object name. The snapshot namespace's rows are removed before and after
 * (MySQL's tables are shared).
 */
export async function generateSnapshots(mysqlUrl?: string): Promise<Map<string, string>> {
  const log = new StatementLog();
  const ds = await open(log, mysqlUrl);
  const clean = () => ds.query('DELETE FROM job_instance WHERE namespace = ? OR job_id = ?', [NS, JOB]);
  const out = new Map<string, string>();
  try {
    await clean();
    for (const { type, cases } of SQL_CASES) {
      const name = type.name;
      const sut = new type(ds);
      const blocks: string[] = [];
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
        const head = `-- ${name}.${c.method}${c.what ? `: ${c.what}` : ''}`;
        blocks.push([head, ...log.lines.map((l) => render(l.sql, l.params))].join('\n'));
      }
      out.set(name, `${HEADER}\n\n${blocks.join('\n\n')}\n`);
    }
  } finally {
    await clean();
    await ds.destroy();
  }
  return out;
}

const HEADER =
  '-- The statements this job_instance query object issues, one block per call of test/utils/instance-sql.ts.\n' +
  '-- Written by the instance-sql tests with UPDATE_SQL_SNAPSHOTS=1; they fail on any difference.';

/**
 * Compares the generated snapshots of `dialect` with the committed files (UPDATE_SQL_SNAPSHOTS=1: rewrites them
 * first). @returns the names of the objects whose file differs or is missing.
 */
export function compareSnapshots(dialect: Dialect, generated: Map<string, string>): string[] {
  const differ: string[] = [];
  for (const [name, text] of generated) {
    const file = snapshotFile(name, dialect);
    if (process.env.UPDATE_SQL_SNAPSHOTS === '1') writeFileSync(file, text);
    if (!existsSync(file) || readFileSync(file, 'utf8') !== text) differ.push(name);
  }
  return differ;
}

/** `Class.method` of every method of the query objects that no case calls (private ones too: none may hide SQL). */
export function methodsWithoutCase(): string[] {
  return SQL_CASES.flatMap(({ type, cases }) => {
    const covered = new Set<string>(cases.map((c) => c.method));
    const methods = Object.getOwnPropertyNames(type.prototype).filter((m) => m !== 'constructor');
    return methods.filter((m) => !covered.has(m)).map((m) => `${type.name}.${m}`);
  });
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
    const m = new RegExp(`[ ,][\`"]?${col}[\`"]? = (\\?|NULL)`).exec(sql.slice(set, where));
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

/**
 * Every statement of a snapshot text that writes job_instance.status or .staged, checked against the state machine:
 * a status write names its from-statuses in its WHERE, each `from → to` is in TRANSITIONS, and it clears the staged
 * mark or (only PENDING → DISPATCHED, the pump's stage write) sets it; a write of the mark alone only clears it.
 * @returns one line per violation, naming the block.
 */
export function statusWriteViolations(text: string, canTransition: (from: S, to: S) => boolean): string[] {
  const out: string[] = [];
  let block = '';
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].startsWith('-- ') && !lines[i].startsWith('-- params:')) block = lines[i].slice(3);
    if (lines[i].startsWith('-- ') || lines[i].trim() === '') continue;
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
      if (!canTransition(f as S, w.to as S)) bad(`${String(f)} -> ${String(w.to)} is not a transition`);
    const staging = w.from.every((f) => f === S.PENDING) && w.to === S.DISPATCHED;
    if (w.staged === undefined) bad('writes status without writing the staged mark');
    else if (w.staged !== null && !(staging && w.staged === StagedKind.DELAYED)) bad(`sets staged ${String(w.staged)}`);
  }
  return out;
}
