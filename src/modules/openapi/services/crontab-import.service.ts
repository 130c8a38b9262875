import { Injectable } from '@nestjs/common';
import {
  ConflictError, excerpt, jsonBytes, MAX_IMPORT_ENTRIES, MAX_IMPORT_REJECTED_LISTED, MAX_PARAMS_BYTES, MAX_REJECTED_LINE_CHARS,
  MAX_REJECTED_REASON_CHARS, ValidationError,
} from '../../../common/index.js';
import { TriggerType } from '../../metadata/index.js';
import { type CrontabEntry, parseCrontab, RejectedLine } from '../../trigger/index.js';
import { ImportCrontabDto } from '../dto/job.dto.js';
import { HandlerCheckService } from './handler-check.service.js';
import { JobsService } from './jobs.service.js';

/** Result of importing one cron.d file: the first rejected lines (each cut), and how many there were. */
export interface CrontabImportResult {
  created: string[];
  updated: string[];
  rejected: RejectedLine[];
  rejectedTotal: number;
}

/**
 * Turns a cron.d file into job definitions with the `shell` handler (issue 2, point 7). Each entry
 * becomes job `<file>-L<line>` running `argv: ['/bin/sh', '-c', command]` — the line *is* a shell
 * command, so the shell is named explicitly as the program rather than hidden — with the file's
 * variables as environment. The crontab user is kept in the description; Tickwheel runs the command as
 * the executor's user. Importing the same file again updates the same jobs. Lines that are not jobs come
 * back in `rejected` with the reason, never dropped silently; the answer lists the first
 * MAX_IMPORT_REJECTED_LISTED of them, each cut, and counts them all in `rejectedTotal` (issue 9: 1 MB of
 * junk was answered with 54 MB).
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
    const parsed = parseCrontab(dto.content, { fileName: dto.fileName, timeZone });
    const { entries, oversized } = splitOversized(parsed.entries, dto.content);
    if (entries.length > MAX_IMPORT_ENTRIES) {
      throw new ValidationError('content', `${entries.length} entries; one import takes at most ${MAX_IMPORT_ENTRIES} (split the file)`);
    }
    const rejected = [...parsed.rejected, ...oversized].sort((a, b) => a.lineNo - b.lineNo);
    const out: CrontabImportResult = { created: [], updated: [], rejected: rejected.slice(0, MAX_IMPORT_REJECTED_LISTED).map(cutRejected), rejectedTotal: rejected.length };
    for (const e of entries) {
      const fields = {
        description: `${dto.fileName}:${e.lineNo} (crontab user ${e.user})`.slice(0, 255),
        handler: 'shell',
        triggerType: TriggerType.CRON,
        triggerExpr: e.cronExpression,
        timeZone: e.timeZone,
        params: paramsOf(e),
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

function paramsOf(e: CrontabEntry): Record<string, unknown> {
  return { argv: ['/bin/sh', '-c', e.command], env: e.env };
}

/**
 * Entries whose job params (command and the variables set before it) would be over MAX_PARAMS_BYTES become
 * rejected lines, checked before any job is written (creating them would be a 400 half way through the file).
 */
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
    const reason = `the job's params (the command and the variables set before it) would be ${bytes} bytes as JSON; a job's params are at most ${MAX_PARAMS_BYTES} bytes`;
    oversized.push({ lineNo: e.lineNo, line: lines[e.lineNo - 1] ?? '', reason });
  }
  return { entries, oversized };
}

function cutRejected(r: RejectedLine): RejectedLine {
  return { lineNo: r.lineNo, line: excerpt(r.line, MAX_REJECTED_LINE_CHARS), reason: excerpt(r.reason, MAX_REJECTED_REASON_CHARS) };
}
