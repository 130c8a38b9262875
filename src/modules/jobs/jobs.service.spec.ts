import { clockAt } from '../../../test/fakes/fake-clock.js';
import { ConflictError, ErrorCode, SchedulerError } from '../../common/index.js';
import type { AppConfig } from '../../config/index.js';
import type { NodeRegistryService } from '../dispatch/index.js';
import { EgressPolicy } from '../egress/index.js';
import {
  type ApiClient,
  type ApiClientRepository,
  type AuditEntry,
  type AuditLogRepository,
  JobDefinition,
  type JobDefinitionRepository,
  Scope,
  TriggerType,
  UnitOfWork,
} from '../metadata/index.js';
import type { JobChangeFires, JobSignals } from '../trigger/index.js';
import { AuditAction, AuditService } from './audit/audit.service.js';
import { type Caller } from './caller.js';
import { HandlerCheckService } from './handler-check.service.js';
import { CallbackUrlCheck } from './callback-url-check.service.js';
import { type NewJob } from './job-input.js';
import { JobsService } from './jobs.service.js';

const NS = 'unit';
const T0 = Date.UTC(2026, 11, 1, 12, 0, 0);

/** job_definition in memory, with the repository's version check and unique (namespace, app, code). */
class MemoryJobs {
  readonly rows = new Map<string, JobDefinition>();

  async countOwned(_em: unknown, namespace: string, appId: string): Promise<number> {
    return [...this.rows.values()].filter((r) => r.namespace === namespace && r.appId === appId).length;
  }
  async create(def: JobDefinition): Promise<JobDefinition> {
    if (await this.findByCode(def.namespace, def.appId, def.code)) {
      throw new ConflictError(`job code '${def.code}' already exists`, 'code');
    }
    this.rows.set(def.id, copy(def));
    return copy(def);
  }
  async update(def: JobDefinition, patch: Partial<JobDefinition>): Promise<JobDefinition> {
    const row = this.rows.get(def.id);
    if (!row || row.version !== def.version) throw new ConflictError(`job '${def.code}' was changed concurrently`);
    const next = Object.assign(copy(row), patch, { version: def.version + 1 });
    this.rows.set(def.id, next);
    return copy(next);
  }
  async setNextFire(id: string, nextFireTime: number | null): Promise<void> {
    (this.rows.get(id) as JobDefinition).nextFireTime = nextFireTime;
  }
  async delete(_ns: string, id: string): Promise<void> {
    this.rows.delete(id);
  }
  async findById(namespace: string, id: string): Promise<JobDefinition | null> {
    const row = this.rows.get(id);
    return row && row.namespace === namespace ? copy(row) : null;
  }
  async findByCode(namespace: string, appId: string, code: string): Promise<JobDefinition | null> {
    const row = [...this.rows.values()].find((r) => r.namespace === namespace && r.appId === appId && r.code === code);
    return row ? copy(row) : null;
  }
  async findByCodeAnyApp(namespace: string, code: string, limit: number): Promise<JobDefinition[]> {
    return [...this.rows.values()].filter((r) => r.namespace === namespace && r.code === code).slice(0, limit);
  }
  async list(
    namespace: string,
    appId: string | null,
    offset: number,
    limit: number,
  ): Promise<[JobDefinition[], number]> {
    const all = [...this.rows.values()].filter(
      (r) => r.namespace === namespace && (appId === null || r.appId === appId),
    );
    return [all.slice(offset, offset + limit).map(copy), all.length];
  }
}

const copy = (d: JobDefinition): JobDefinition => Object.assign(new JobDefinition(), d);

/**
 * The job lifecycle as a domain service, with no HTTP, database or Redis: repositories in memory, the
 * scheduler's signals and staging recorded, this process advertising `noop`. Each refusal is a domain error
 * carrying the code and field the API answers with.
 */
describe(JobsService.name, () => {
  let jobs: MemoryJobs;
  let audit: AuditEntry[];
  let signalled: string[];
  let unstaged: string[];
  let clients: Map<string, Partial<ApiClient>>;
  let sut: JobsService;

  const app = (appId: string, ...scopes: Scope[]): Caller => ({
    appId,
    scopes: new Set(scopes.length > 0 ? scopes : [Scope.JOBS_READ, Scope.JOBS_WRITE]),
    maxUnfinishedTasks: null,
  });
  const alice = app('alice');
  const bob = app('bob');
  const admin = app('root', Scope.ADMIN);
  const everyMinute = (code: string, more: Partial<NewJob> = {}): NewJob => ({
    code,
    handler: 'noop',
    triggerType: TriggerType.CRON,
    triggerExpr: '0 * * * * *',
    ...more,
  });

  /** Runs `fn` and returns the domain error it threw. */
  async function refusal(fn: () => Promise<unknown>): Promise<SchedulerError> {
    try {
      await fn();
    } catch (err) {
      if (err instanceof SchedulerError) return err;
      throw err;
    }
    throw new Error('expected a refusal');
  }

  beforeEach(() => {
    jobs = new MemoryJobs();
    audit = [];
    signalled = [];
    unstaged = [];
    clients = new Map();
    const config = {
      namespace: NS,
      shape: 'standalone',
      jobMaxInstancesPerMinute: 3000,
      caps: { maxJobsPerApp: 3, maxUnfinishedTasksPerApp: 0 },
      longTasks: { maxRunTimeMs: 86_400_000 },
    } as AppConfig;
    const clock = clockAt(() => T0);
    const registry = {
      candidates: async (handler: string) => (handler === 'noop' ? [{ info: { handlers: ['noop'] } }] : []),
      liveNodes: async () => [{ info: { handlers: ['noop'] } }],
    } as unknown as NodeRegistryService;
    const auditRepo = { append: async (e: AuditEntry) => void audit.push(e) } as unknown as AuditLogRepository;
    const clientRepo = {
      lockForUpdate: async (_em: unknown, appId: string) => clients.get(appId) ?? null,
    } as unknown as ApiClientRepository;
    const fires = {
      unstage: async (_em: unknown, jobId: string) => {
        unstaged.push(jobId);
        return { removed: 0, earliest: null };
      },
      onResume: async () => 0,
      release: async () => undefined,
    } as unknown as JobChangeFires;
    const signals = { jobChanged: async (id: string) => void signalled.push(id) } as unknown as JobSignals;
    sut = new JobsService(
      jobs as unknown as JobDefinitionRepository,
      clientRepo,
      new AuditService(auditRepo, config, clock),
      fires,
      new HandlerCheckService(registry, config, clock, EgressPolicy.fromSettings()),
      new CallbackUrlCheck(EgressPolicy.fromSettings(), { lookup: async () => null }),
      signals,
      config,
      clock,
      { run: (fn: (em: never) => Promise<unknown>) => fn({} as never) } as unknown as UnitOfWork,
    );
  });

  it('should create a job owned by the caller, with its first fire, its audit row and a signal', async () => {
    const job = await sut.create(alice, everyMinute('report', { timeZone: ' Europe/London ' }));
    expect(job).toMatchObject({ appId: 'alice', namespace: NS, code: 'report', timeZone: 'Europe/London' });
    expect(job.nextFireTime).toBe(T0 + 60_000);
    expect(job).toMatchObject({ shardTotal: 1, retryMax: 0, timeoutMs: 60_000, enabled: true, version: 1 });
    expect(audit).toEqual([
      expect.objectContaining({ appId: 'alice', action: AuditAction.JOB_CREATE, targetId: job.id }),
    ]);
    expect(signalled).toEqual([job.id]);
  });

  it('should refuse a bad schedule, a handler this process lacks and a shell job without the shell scope', async () => {
    const badCron = await refusal(() => sut.create(alice, everyMinute('bad', { triggerExpr: 'every minute' })));
    expect(badCron).toMatchObject({ code: ErrorCode.VALIDATION, field: 'triggerExpr' });
    const past = await refusal(() =>
      sut.create(
        alice,
        everyMinute('once', { triggerType: TriggerType.ONE_SHOT, triggerExpr: '2020-01-01T00:00:00Z' }),
      ),
    );
    expect(past).toMatchObject({ code: ErrorCode.VALIDATION, field: 'triggerExpr' });
    const missing = await refusal(() => sut.create(alice, everyMinute('x', { handler: 'nope' })));
    expect(missing).toMatchObject({ code: ErrorCode.VALIDATION, field: 'handler' });
    const shell = await refusal(() => sut.create(alice, everyMinute('sh', { handler: 'shell' })));
    expect(shell).toMatchObject({ code: ErrorCode.FORBIDDEN, details: { scope: Scope.SHELL } });
    const sharded = await refusal(() => sut.create(alice, everyMinute('s', { shardTotal: 2 })));
    expect(sharded).toMatchObject({ code: ErrorCode.VALIDATION, field: 'shardTotal' });
    expect(jobs.rows.size).toBe(0);
    expect(audit).toEqual([]);
  });

  it("should hold an app to its job cap (the client's maxJobs, else the setting) and its codes unique", async () => {
    for (const code of ['a', 'b', 'c']) await sut.create(alice, everyMinute(code));
    expect(await refusal(() => sut.create(alice, everyMinute('d')))).toMatchObject({
      code: ErrorCode.CONFLICT,
      field: 'maxJobs',
    });
    clients.set('bob', { maxJobs: 1 });
    await sut.create(bob, everyMinute('a'));
    expect(await refusal(() => sut.create(bob, everyMinute('b')))).toMatchObject({ field: 'maxJobs' });
    clients.set('bob', { maxJobs: 0 });
    expect(await refusal(() => sut.create(bob, everyMinute('a')))).toMatchObject({
      code: ErrorCode.CONFLICT,
      field: 'code',
    });
  });

  it("should hide another app's job and let an admin name it by id, by code, or with its owner", async () => {
    const mine = await sut.create(alice, everyMinute('report'));
    expect(await refusal(() => sut.find(bob, { idOrCode: mine.id }))).toMatchObject({ code: ErrorCode.NOT_FOUND });
    expect(await refusal(() => sut.find(bob, { idOrCode: 'report' }))).toMatchObject({ code: ErrorCode.NOT_FOUND });
    expect(await refusal(() => sut.find(bob, { idOrCode: 'report', appId: 'alice' }))).toMatchObject({
      code: ErrorCode.FORBIDDEN,
      details: { scope: Scope.ADMIN },
    });
    expect((await sut.find(admin, { idOrCode: mine.id })).id).toBe(mine.id);
    expect((await sut.find(admin, { idOrCode: 'report' })).id).toBe(mine.id);
    const theirs = await sut.create(bob, everyMinute('report'));
    expect(await refusal(() => sut.find(admin, { idOrCode: 'report' }))).toMatchObject({
      code: ErrorCode.CONFLICT,
      field: 'appId',
    });
    expect((await sut.find(admin, { idOrCode: 'report', appId: 'bob' })).id).toBe(theirs.id);
    expect((await sut.list(alice, undefined, 0, 10))[1]).toBe(1);
    expect((await sut.list(admin, undefined, 0, 10))[1]).toBe(2);
  });

  it('should apply a change with its audit row, recompute the schedule and refuse a null it cannot clear', async () => {
    const job = await sut.create(alice, everyMinute('report'));
    const changed = await sut.update(
      alice,
      { idOrCode: 'report' },
      { triggerExpr: ' 0 */5 * * * * ', description: 'x' },
    );
    expect(changed).toMatchObject({ triggerExpr: '0 */5 * * * *', description: 'x', version: 2 });
    expect(changed.nextFireTime).toBe(T0 + 5 * 60_000);
    expect(unstaged).toEqual([job.id]);
    expect(audit.map((a) => a.action)).toEqual([AuditAction.JOB_CREATE, AuditAction.JOB_UPDATE]);
    const cleared = await sut.update(alice, { idOrCode: 'report' }, { description: null as unknown as string });
    expect(cleared.description).toBeNull();
    const bad = await refusal(() => sut.update(alice, { idOrCode: 'report' }, { handler: null as unknown as string }));
    expect(bad).toMatchObject({ code: ErrorCode.VALIDATION, field: 'handler' });
    const queue = await refusal(() =>
      sut.update(alice, { idOrCode: 'report' }, { overlapPolicy: 'QUEUE' as never, maxConcurrency: 2 }),
    );
    expect(queue).toMatchObject({ code: ErrorCode.VALIDATION, field: 'maxConcurrency' });
  });

  it('should pause (no next fire) and resume from now, each once, and delete with the staged fires', async () => {
    const job = await sut.create(alice, everyMinute('report'));
    const paused = await sut.pause(alice, { idOrCode: 'report' });
    expect(paused).toMatchObject({ enabled: false, nextFireTime: null });
    expect(sut.preview(paused, 2)).toEqual([T0 + 60_000, T0 + 120_000]);
    await sut.pause(alice, { idOrCode: 'report' });
    const resumed = await sut.resume(alice, { idOrCode: job.id });
    expect(resumed).toMatchObject({ enabled: true, nextFireTime: T0 + 60_000 });
    await sut.remove(alice, { idOrCode: 'report' });
    expect(jobs.rows.size).toBe(0);
    expect(audit.map((a) => a.action)).toEqual([
      AuditAction.JOB_CREATE,
      AuditAction.JOB_PAUSE,
      AuditAction.JOB_RESUME,
      AuditAction.JOB_DELETE,
    ]);
    expect(signalled).toEqual([job.id, job.id, job.id]);
  });
});
