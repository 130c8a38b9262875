import { Inject, Injectable } from '@nestjs/common';
import { ValidationError } from '../../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { JobDefinition, JobDefinitionRepository, TriggerType } from '../../metadata/index.js';
import { JobSignals, parseCrontab, RejectedLine } from '../../trigger/index.js';
import { type Caller } from '../auth/caller.js';
import { ImportCrontabDto } from '../dto/job.dto.js';
import { AuditAction, AuditService } from './audit.service.js';
import { HandlerCheckService } from './handler-check.service.js';
import { type JobChange, JobsService } from './jobs.service.js';

/** Most entries one import takes: all are written in one transaction, so the request stays short. */
export const MAX_IMPORT_ENTRIES = 500;

/** Result of importing one cron.d file. */
export interface CrontabImportResult {
  created: string[];
  updated: string[];
  rejected: RejectedLine[];
}

/** One entry's planned write: a new job, or a change of the caller's job of that code. */
type Planned = { code: string; create: JobDefinition } | { code: string; before: JobDefinition; change: JobChange };

/**
 * Turns a cron.d file into job definitions with the `shell` handler (issue 2, point 7), owned by the
 * caller's app (which needs the `shell` scope). Each entry becomes job `<file>-L<line>` running
 * `argv: ['/bin/sh', '-c', command]` — the line *is* a shell command, so the shell is named explicitly as
 * the program rather than hidden — with the file's variables as environment. The crontab user is kept in
 * the description; Tickwheel runs the command as the executor's user. Importing the same file again
 * updates the same jobs of the same app (another app's import makes its own). Every entry is validated
 * first, then all are written with their audit rows in one transaction: all or nothing. Lines that are not
 * jobs come back in `rejected` with the reason, never dropped silently.
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
  ) {}

  /** @throws ForbiddenError (no `shell` scope), ValidationError (too many entries, a bad one), ConflictError. */
  async import(caller: Caller, dto: ImportCrontabDto): Promise<CrontabImportResult> {
    this.handlers.assertMayUse(caller, 'shell');
    if (dto.enable) await this.handlers.assertRunnable('shell');
    const timeZone = dto.timeZone?.trim() || 'UTC';
    const { entries, rejected } = parseCrontab(dto.content, { fileName: dto.fileName, timeZone });
    if (entries.length > MAX_IMPORT_ENTRIES) {
      throw new ValidationError('content', `${entries.length} entries; one import takes at most ${MAX_IMPORT_ENTRIES} (split the file)`);
    }
    const planned: Planned[] = [];
    for (const e of entries) {
      const fields = {
        description: `${dto.fileName}:${e.lineNo} (crontab user ${e.user})`.slice(0, 255),
        handler: 'shell',
        triggerType: TriggerType.CRON,
        triggerExpr: e.cronExpression,
        timeZone: e.timeZone,
        params: { argv: ['/bin/sh', '-c', e.command], env: e.env },
        enabled: dto.enable ?? false,
      };
      const before = await this.repo.findByCode(this.config.namespace, caller.appId, e.code);
      planned.push(before
        ? { code: e.code, before, change: await this.jobs.planUpdate(caller, before, fields) }
        : { code: e.code, create: await this.jobs.newDefinition(caller, { code: e.code, ...fields }) });
    }
    const out: CrontabImportResult = { created: [], updated: [], rejected };
    const changed = await this.repo.editTransaction(async (em) => {
      const ids: string[] = [];
      for (const p of planned) {
        const saved = 'create' in p ? await this.jobs.insertOwned(em, caller, p.create) : await this.jobs.applyUpdate(em, caller, p.before, p.change);
        ('create' in p ? out.created : out.updated).push(p.code);
        ids.push(saved.id);
      }
      await this.audit.record(em, caller.appId, AuditAction.CRONTAB_IMPORT, { type: 'crontab', id: dto.fileName }, undefined,
        { created: out.created, updated: out.updated, rejected: rejected.length, enable: dto.enable ?? false });
      return ids;
    });
    for (const id of changed) await this.signals.jobChanged(id);
    return out;
  }
}
