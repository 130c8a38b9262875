import { DataSource, EntityManager } from 'typeorm';
import {
  AdmissionInstances,
  DispatchLedger,
  ExecutionInstances,
  FireLedger,
  InstanceIntake,
  InstanceReads,
  InstanceRetention,
  InstanceTransitions,
  NotificationInstances,
  JobInstance,
  JobInstanceStatus as S,
  newJobInstance,
  ReconcileInstances,
  StagedInstances,
  StagedKind,
  TriggerSource,
} from '../../src/modules/metadata/index.js';

/**
 * Fixed arguments: the snapshots hold no id, time or random value that changes between runs. The rows live in
 * namespace NS, of job JOB (a run removes them before and after: MySQL's tables are shared).
 */
export const NS = 'tw-sql-snapshot';
const NOW = 1_800_000_000_000;
export const JOB = '00000000-0000-7000-8000-00000000000j';
const NODE = 'node-1';
const id = (n: number) => `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`;

/** A row of the snapshot namespace: instance `n` of JOB, PENDING, fired at NOW + `fire` ms, with `patch`. */
function row(n: number, patch: Partial<JobInstance> = {}, fire = 0): JobInstance {
  const fields = { namespace: NS, appId: 'app-1', handler: 'h', fireTime: NOW + fire, dueAt: NOW + fire };
  const fresh = newJobInstance({ ...fields, jobId: JOB, triggerSource: TriggerSource.SCHEDULE }, NOW - 2500);
  const traceparent = `00-${String(n).padStart(32, '0')}-${String(n).padStart(16, '0')}-01`;
  return Object.assign(fresh, { id: id(n), requestId: `req-${n}`, traceId: `trace-${n}`, traceparent, ...patch });
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
/** The rows of app-1 in the snapshot namespace: what the task list and overview reads name. */
const TASKS = { namespace: NS, appId: 'app-1' };

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
    { method: 'deleteStagedFires', run: (s, c) => tx(c, (em) => s.deleteStagedFires(em, JOB, NOW)) },
    { method: 'filledFires', run: (s) => s.filledFires(JOB, [NOW, NOW + 5000], 2) },
    { method: 'queuedScheduled', run: (s, c) => tx(c, (em) => s.queuedScheduled(em, JOB, NOW, 1000)) },
    { method: 'cancelQueued', run: (s, c) => tx(c, (em) => s.cancelQueued(em, [id(10), id(11)], 'MISFIRE_SKIP', NOW)) },
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
    {
      method: 'findOldestWaiting',
      what: 'of some trigger sources (a paused job)',
      run: (s) => s.findOldestWaiting(JOB, [TriggerSource.MANUAL, TriggerSource.BACKFILL]),
    },
    { method: 'isCancelledAt', run: (s) => s.isCancelledAt(id(90), 1) },
    { method: 'clearCancelledLease', run: (s) => s.clearCancelledLease(id(90), 1) },
    { method: 'leaseUntilOf', run: (s) => s.leaseUntilOf(id(90)) },
    { method: 'findStopping', run: (s) => s.findStopping([JOB], NOW) },
    { method: 'idsInStatus', run: (s) => s.idsInStatus([id(90)], [S.WAITING, S.SUCCESS]) },
    { method: 'findSlotHolders', run: (s) => s.findSlotHolders(NS, 100, [JOB], id(1)) },
  ]),
  object(ReconcileInstances, [
    { method: 'findPendingDue', run: (s) => s.findPendingDue(NS, NOW, 100, 10_000) },
    { method: 'findExpiredLeases', run: (s) => s.findExpiredLeases(NS, NOW, 100) },
    { method: 'findDispatchedRefsBefore', run: (s) => s.findDispatchedRefsBefore(NS, NOW, 100) },
    { method: 'nodesWithWork', run: (s) => s.nodesWithWork(NS) },
    { method: 'jobsWithWaiting', run: (s) => s.jobsWithWaiting(NS, 100, JOB) },
    {
      method: 'pendingDueByHandler',
      what: 'handlers served for every app and for one app left out',
      run: (s) =>
        s.pendingDueByHandler(NS, NOW, { everyApp: ['noop', 'http'], byApp: new Map([['app-1', ['h']]]) }, 1000),
    },
  ]),
  object(InstanceReads, [
    { method: 'findById', run: (s) => s.findById(id(1)) },
    { method: 'findByIds', run: (s) => s.findByIds([id(1), id(3)]) },
    { method: 'findMany', run: (s) => s.findMany([id(1), id(3)]) },
    { method: 'findOnNode', run: (s) => s.findOnNode(NODE, [S.DISPATCHED, S.RUNNING], 100) },
    { method: 'countOnNode', run: (s) => s.countOnNode(NODE, [S.RUNNING]) },
    { method: 'listByJob', run: (s) => s.listByJob(JOB, 0, 20, { fireTime: NOW, shardIndex: 0 }) },
    { method: 'countByJob', run: (s) => s.countByJob(JOB) },
    { method: 'countUnfinishedOfApp', run: (s) => s.countUnfinishedOfApp('app-1') },
    { method: 'unfinishedOfAppByNode', run: (s) => s.unfinishedOfAppByNode(NS, 'app-1') },
    { method: 'lastRunsOf', run: (s) => s.lastRunsOf([JOB]) },
    {
      method: 'listTasks',
      what: "one app's, every filter, after a cursor",
      run: (s) =>
        s.listTasks({ ...TASKS, status: S.PENDING, handler: 'h', from: NOW - 1, to: NOW }, 0, 20, {
          createdAt: NOW,
          id: id(9),
        }),
    },
    {
      method: 'listTasks',
      what: "every app's of the namespace",
      run: (s) => s.listTasks({ ...TASKS, appId: null }, 20, 20),
    },
    { method: 'countTasks', run: (s) => s.countTasks({ ...TASKS, status: S.SUCCESS }) },
    { method: 'finishedByHour', run: (s) => s.finishedByHour(TASKS, NOW - 86_400_000, NOW) },
    {
      method: 'countByStatus',
      what: 'of the namespace',
      run: (s) => s.countByStatus({ ...TASKS, appId: null }, [S.RUNNING]),
    },
    { method: 'runningNow', run: (s) => s.runningNow(TASKS, 20) },
  ]),
  object(InstanceTransitions, [
    {
      method: 'transition',
      what: 'DISPATCHED → PENDING guarded by attempt, token and node',
      run: (s) => s.transition(id(1), S.DISPATCHED, S.PENDING, { attempt: 1, fencingToken: 0, nodeId: NODE }, {}, NOW),
    },
    {
      method: 'transition',
      what: 'the hand-back of a staged fire its node never got: it stays staged',
      run: (s) =>
        s.transition(id(1), S.DISPATCHED, S.PENDING, { attempt: 1, nodeId: NODE }, {}, NOW, undefined, StagedKind.FIRE),
    },
  ]),
  object(InstanceRetention, [
    { method: 'finishedBefore', run: (s) => s.finishedBefore(NS, NOW, 100) },
    { method: 'removeFinished', run: (s) => s.removeFinished([id(1), id(3)]) },
  ]),
  object(NotificationInstances, [
    { method: 'byIds', run: (s) => s.byIds([id(1), id(3)]) },
    { method: 'outcomesUpTo', run: (s) => s.outcomesUpTo(JOB, NOW, 4) },
    { method: 'jobRunsIn', run: (s) => s.jobRunsIn(NS, S.PENDING, NOW - 1000, NOW, 100) },
  ]),
];

/** `Class.method` of every method of the query objects that no case calls (private ones too: none may hide SQL). */
export function methodsWithoutCase(): string[] {
  return SQL_CASES.flatMap(({ type, cases }) => {
    const covered = new Set<string>(cases.map((c) => c.method));
    const methods = Object.getOwnPropertyNames(type.prototype).filter((m) => m !== 'constructor');
    return methods.filter((m) => !covered.has(m)).map((m) => `${type.name}.${m}`);
  });
}
