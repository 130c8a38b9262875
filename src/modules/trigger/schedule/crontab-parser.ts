/**
 * Parser for /etc/cron.d files (crontab(5)): every line becomes an entry, a rejected line with a reason, or
 * an ignored comment/blank. `@reboot` and an unescaped `%` are rejected; `\%` becomes `%` (docs/trigger.md).
 */
import { SchedulerError, ValidationError } from '../../../common/index.js';
import { validateCron, validateTimeZone } from './cron-schedule.js';

/** One importable job from a crontab line. */
export interface CrontabEntry {
  /** 1-based line number in the file. */
  lineNo: number;
  /** Stable job code: `<fileBaseName>-L<lineNo>`, characters outside `[A-Za-z0-9_.-]` replaced by `_`. */
  code: string;
  /** Five cron fields, macros expanded. */
  cronExpression: string;
  user: string;
  /** The command as cron would pass it to the shell (`\%` unescaped). */
  command: string;
  /** Zone the entry is read in: a `CRON_TZ=` line above it, else the import's zone. */
  timeZone: string;
  /** Variables assigned on earlier lines of the file (CRON_TZ excepted). */
  env: Record<string, string>;
}

/** A line that is not an entry, with why. */
export interface RejectedLine {
  lineNo: number;
  line: string;
  reason: string;
}

/** Result of {@link parseCrontab}. */
export interface CrontabParseResult {
  entries: CrontabEntry[];
  rejected: RejectedLine[];
}

/** Options of {@link parseCrontab}. `timeZone` (default UTC) is the zone the entries are checked in. */
export interface CrontabParseOptions {
  fileName: string;
  timeZone?: string;
}

/** Reason recorded for `CRON_TZ=zone` lines. */
export const CRON_TZ_REASON = 'CRON_TZ (the entries after it are read in that zone)';

/** Reason recorded for `NAME=value` lines. */
export const VARIABLE_REASON = 'variable assignment (applied as environment to the entries after it)';

const MACROS: Readonly<Record<string, string>> = {
  '@hourly': '0 * * * *',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@weekly': '0 0 * * 0',
  '@monthly': '0 0 1 * *',
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
};

const VARIABLE = /^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/;
const MACRO_LINE = /^(@\S+)(?:\s+(\S+)\s+(\S.*))?$/;
const FIELD_LINE = /^(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S.*)$/;
const ESCAPE_HINT = 'write \\% for a literal percent';
const USER = /^[A-Za-z_][A-Za-z0-9_.-]*\$?$/;

/**
 * Parses the text of one cron.d file.
 *
 * @param content the file's text (LF or CRLF line ends).
 * @param opts `fileName` gives the entries' codes (its base name is used); `timeZone` the zone to check in.
 * @throws ValidationError(`timeZone`) when `opts.timeZone` is not a known zone.
 */
export function parseCrontab(content: string, opts: CrontabParseOptions): CrontabParseResult {
  let timeZone = opts.timeZone ?? 'UTC';
  validateTimeZone(timeZone);
  const base = (opts.fileName.split(/[\\/]/).pop() ?? '').replace(/[^A-Za-z0-9_.-]/g, '_') || 'crontab';
  const env: Record<string, string> = {};
  const result: CrontabParseResult = { entries: [], rejected: [] };
  content.split(/\r?\n/).forEach((line, index) => {
    const lineNo = index + 1;
    const text = line.trim();
    if (text === '' || text.startsWith('#')) return;
    const variable = VARIABLE.exec(text);
    if (variable && variable[1] === 'CRON_TZ') {
      const zone = unquote(variable[2].trim());
      try {
        validateTimeZone(zone);
      } catch {
        throw new ValidationError(
          'content',
          `line ${lineNo}: CRON_TZ=${zone} is not a known time zone; nothing was imported`,
        );
      }
      timeZone = zone; // cronie: the entries after it are read in this zone
      result.rejected.push({ lineNo, line, reason: CRON_TZ_REASON });
      return;
    }
    if (variable) {
      env[variable[1]] = unquote(variable[2].trim());
      result.rejected.push({ lineNo, line, reason: VARIABLE_REASON });
      return;
    }
    const parsed = parseJobLine(text, timeZone);
    if (typeof parsed === 'string') {
      result.rejected.push({ lineNo, line, reason: parsed });
      return;
    }
    result.entries.push({ lineNo, code: `${base}-L${lineNo}`, ...parsed, timeZone, env: { ...env } });
  });
  return result;
}

type ParsedJob = Pick<CrontabEntry, 'cronExpression' | 'user' | 'command'>;

/** The schedule, user and command of a job line, or the reason it is rejected. */
function parseJobLine(text: string, timeZone: string): ParsedJob | string {
  let cronExpression: string;
  let user: string;
  let rawCommand: string;
  if (text.startsWith('@')) {
    const m = MACRO_LINE.exec(text);
    const macro = m?.[1] ?? text;
    if (macro === '@reboot') return '@reboot is not supported: Tickwheel has no boot event to fire on';
    if (!m || !(macro in MACROS)) return `unknown macro '${macro}' (known: @reboot, ${Object.keys(MACROS).join(', ')})`;
    if (!m[2]) return `expected '${macro} USER COMMAND'`;
    [cronExpression, user, rawCommand] = [MACROS[macro], m[2], m[3]];
  } else {
    const m = FIELD_LINE.exec(text);
    if (!m) return 'expected five time fields, a user and a command (/etc/cron.d format)';
    [cronExpression, user, rawCommand] = [m.slice(1, 6).join(' '), m[6], m[7]];
  }
  if (!USER.test(user)) return `invalid user '${user}' (a cron.d line has exactly five time fields, then the user)`;
  try {
    validateCron(cronExpression, timeZone);
  } catch (err) {
    if (err instanceof SchedulerError) return err.message;
    throw err;
  }
  const command = unescapePercent(rawCommand);
  if (command === null) {
    return (
      `'%' in the command is not supported (cron turns it into a newline and pipes the rest to stdin); ` +
      `${ESCAPE_HINT}`
    );
  }
  return { cronExpression, user, command };
}

/** Replaces cron's `\%` with `%`; null when the command holds an unescaped `%`. */
function unescapePercent(command: string): string | null {
  let out = '';
  for (let i = 0; i < command.length; i++) {
    const ch = command[i];
    if (ch === '\\' && command[i + 1] === '%') {
      out += '%';
      i++;
    } else if (ch === '%') {
      return null;
    } else {
      out += ch;
    }
  }
  return out;
}

/** Strips one pair of matching surrounding quotes, as cron does for variable values. */
function unquote(value: string): string {
  const q = value.charAt(0);
  return (q === '"' || q === "'") && value.length >= 2 && value.endsWith(q) ? value.slice(1, -1) : value;
}
