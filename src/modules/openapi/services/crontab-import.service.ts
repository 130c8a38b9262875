import { Injectable } from '@nestjs/common';
import { ConflictError, ValidationError } from '../../../common/index.js';

/** Most entries one import takes: each is a job written with its audit row, so the request stays short. */
export const MAX_IMPORT_ENTRIES = 500;
import { TriggerType } from '../../metadata/index.js';
import { parseCrontab, RejectedLine } from '../../trigger/index.js';
import { ImportCrontabDto } from '../dto/job.dto.js';
import { HandlerCheckService } from './handler-check.service.js';
import { JobsService } from './jobs.service.js';

/** Result of importing one cron.d file. */
export interface CrontabImportResult {
  created: string[];
  updated: string[];
  rejected: RejectedLine[];
}

/**
 * Turns a cron.d file into job definitions with the `shell` handler (issue 2, point 7). Each entry
 * becomes job `<file>-L<line>` running `argv: ['/bin/sh', '-c', command]` — the line *is* a shell
 * command, so the shell is named explicitly as the program rather than hidden — with the file's
 * variables as environment. The crontab user is kept in the description; Tickwheel runs the command as
 * the executor's user. Importing the same file again updates the same jobs. Lines that are not jobs come
 * back in `rejected` with the reason, never dropped silently.
 */
@Injectable()
export class CrontabImportService {
  constructor(
    private readonly jobs: JobsService,
    private readonly handlers: HandlerCheckService,
  ) {}

  async import(appId: string, dto: ImportCrontabDto): Promise<CrontabImportResult> {
    if (dto.enable) await this.handlers.assertRunnable('shell'); // before anything is written: all or nothing
    const timeZone = dto.timeZone?.trim() || 'UTC';
    const { entries, rejected } = parseCrontab(dto.content, { fileName: dto.fileName, timeZone });
    if (entries.length > MAX_IMPORT_ENTRIES) {
      throw new ValidationError('content', `${entries.length} entries; one import takes at most ${MAX_IMPORT_ENTRIES} (split the file)`);
    }
    const out: CrontabImportResult = { created: [], updated: [], rejected };
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
      try {
        await this.jobs.create(appId, { code: e.code, ...fields });
        out.created.push(e.code);
      } catch (err) {
        if (!(err instanceof ConflictError)) throw err;
        await this.jobs.update(appId, e.code, fields);
        out.updated.push(e.code);
      }
    }
    return out;
  }
}
