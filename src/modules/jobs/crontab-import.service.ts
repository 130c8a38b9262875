import { Inject, Injectable } from '@nestjs/common';
import {
  excerpt,
  jsonBytes,
  MAX_IMPORT_ENTRIES,
  MAX_IMPORT_REJECTED_LISTED,
  MAX_PARAMS_BYTES,
  MAX_REJECTED_LINE_CHARS,
  MAX_REJECTED_REASON_CHARS,
  ValidationError,
} from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { JobDefinition, JobDefinitionRepository, PausedReason, TriggerType, UnitOfWork } from '../metadata/index.js';
import { type CrontabEntry, JobSignals, parseCrontab, RejectedLine } from '../trigger/index.js';
import { type Caller } from './caller.js';
import { type CrontabFile } from './job-input.js';
import { AuditAction, AuditService } from './audit/audit.service.js';
import { HandlerCheckService } from './handler-check.service.js';
import { type JobChange, JobsService } from './jobs.service.js';

/** An edit's DELETE of staged fires then locks no gaps. */
const READ_COMMITTED = { isolation: 'READ COMMITTED' } as const;

/** Result of importing one cron.d file: the first rejected lines (each cut), and how many there were. */
export interface CrontabImportResult {
  created: string[];
  updated: string[];
  rejected: RejectedLine[];
  rejectedTotal: number;
  pausedForUser: string[];
}

/** One entry's planned write: a new job, or a change of the caller's job of that code. */
type Planned = { code: string; create: JobDefinition } | { code: string; before: JobDefinition; change: JobChange };

/**
 * Turns a cron.d file into `shell` jobs of the caller's app (which needs the `shell` scope): each entry is
 * job `<file>-L<line>` running `argv: ['/bin/sh', '-c', command]` (the line is a shell command) with the
 * file's variables as environment; the crontab user stays in the description. A line's user is never who the
 * command runs as (the shell handler runs it as the app's own uid, docs/tenancy.md "Shell isolation"): unless the
 * caller vouches for that user (`mapUsers`), the job is kept paused with reason CRONTAB_USER, `enable` or not.
 * Importing the file again updates the same jobs. All entries are validated, then written with their audit rows
 * in one transaction. Lines not jobs come back with the reason: the first MAX_IMPORT_REJECTED_LISTED, each cut.
 */
@Injectable()
export class CrontabImportService {
  constructor(
    private readonly jobs: JobsService,
    private readonly repo: JobDefinitionRepository,
    private readonly handlers: HandlerCheckService,
    private readonly audit: AuditService,
    private readonly signals: JobSignals,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly uow: UnitOfWork,
  ) {}

  /** @throws ForbiddenError (no `shell` scope), ValidationError (too many entries, a bad one), ConflictError. */
  async import(caller: Caller, file: CrontabFile): Promise<CrontabImportResult> {
    this.handlers.assertMayUse(caller, 'shell');
    if (file.enable) await this.handlers.assertRunnable('shell', caller.appId);
    const timeZone = file.timeZone?.trim() || 'UTC';
    const parsed = parseCrontab(file.content, { fileName: file.fileName, timeZone });
    const { entries, oversized } = splitOversized(parsed.entries, file.content);
    if (entries.length > MAX_IMPORT_ENTRIES) {
      throw new ValidationError(
        'content',
        `${entries.length} entries; one import takes at most ${MAX_IMPORT_ENTRIES} (split the file)`,
      );
    }
    const rejected = [...parsed.rejected, ...oversized].sort((a, b) => a.lineNo - b.lineNo);
    const planned: Planned[] = [];
    const mapped = new Set(file.mapUsers ?? []);
    const pausedForUser: string[] = [];
    for (const e of entries) {
      const held = !mapped.has(e.user);
      const fields = {
        description: describe(file.fileName, e, held),
        handler: 'shell',
        triggerType: TriggerType.CRON,
        triggerExpr: e.cronExpression,
        timeZone: e.timeZone,
        params: paramsOf(e),
        enabled: !held && (file.enable ?? false),
      };
      const before = await this.repo.findByCode(this.config.namespace, caller.appId, e.code);
      const p: Planned = before
        ? { code: e.code, before, change: await this.jobs.planUpdate(caller, before, fields) }
        : { code: e.code, create: await this.jobs.newDefinition(caller, { code: e.code, ...fields }) };
      if (held) {
        pausedForUser.push(e.code);
        Object.assign('create' in p ? p.create : p.change.patch, { pausedReason: USER_REASON, pausedAt: null });
      }
      planned.push(p);
    }
    const out: CrontabImportResult = {
      created: [],
      updated: [],
      rejected: rejected.slice(0, MAX_IMPORT_REJECTED_LISTED).map(cutRejected),
      rejectedTotal: rejected.length,
      pausedForUser,
    };
    const changed = await this.uow.run(async (em) => {
      const ids: string[] = [];
      for (const p of planned) {
        const saved =
          'create' in p
            ? await this.jobs.insertOwned(em, caller, p.create)
            : await this.jobs.applyUpdate(em, caller, p.before, p.change);
        ('create' in p ? out.created : out.updated).push(p.code);
        ids.push(saved.id);
      }
      await this.audit.record(
        em,
        caller.appId,
        AuditAction.CRONTAB_IMPORT,
        { type: 'crontab', id: file.fileName },
        undefined,
        {
          created: out.created,
          updated: out.updated,
          rejected: rejected.length,
          enable: file.enable ?? false,
          pausedForUser,
        },
      );
      return ids;
    }, READ_COMMITTED);
    for (const id of changed) await this.signals.jobChanged(id);
    return out;
  }
}

const USER_REASON = PausedReason.CRONTAB_USER;

function describe(fileName: string, e: CrontabEntry, held: boolean): string {
  const as = held
    ? `not mapped: it runs as the app's shell uid, not as ${e.user}`
    : "mapped: it runs as the app's shell uid";
  return `${fileName}:${e.lineNo} (crontab user ${e.user}, ${as})`.slice(0, 255);
}

function paramsOf(e: CrontabEntry): Record<string, unknown> {
  return { argv: ['/bin/sh', '-c', e.command], env: e.env };
}

/** Entries whose job params would pass MAX_PARAMS_BYTES become rejected lines, before any job is written. */
function splitOversized(all: CrontabEntry[], content: string): { entries: CrontabEntry[]; oversized: RejectedLine[] } {
  const entries: CrontabEntry[] = [];
  const oversized: RejectedLine[] = [];
  let lines: string[] | undefined;
  for (const e of all) {
    const bytes = jsonBytes(paramsOf(e));
    if (bytes <= MAX_PARAMS_BYTES) {
      entries.push(e);
      continue;
    }
    lines ??= content.split(/\r?\n/);
    const reason =
      `the job's params (the command and the variables set before it) would be ${bytes} bytes as JSON; ` +
      `a job's params are at most ${MAX_PARAMS_BYTES} bytes`;
    oversized.push({ lineNo: e.lineNo, line: lines[e.lineNo - 1] ?? '', reason });
  }
  return { entries, oversized };
}

function cutRejected(r: RejectedLine): RejectedLine {
  return {
    lineNo: r.lineNo,
    line: excerpt(r.line, MAX_REJECTED_LINE_CHARS),
    reason: excerpt(r.reason, MAX_REJECTED_REASON_CHARS),
  };
}
