import type { LoggerService } from '@nestjs/common';
import { cutText } from '../../common/index.js';
import type { HandlerLog } from './job-context.js';

/** Longest kept handler log line, characters (UTF-16 units), its cut mark included. */
export const LOG_LINE_MAX_CHARS = 4000;

/** Joins a handler's log arguments like console.log: Errors as their stack, objects as JSON ("[Circular]"). */
export function formatLogArgs(args: unknown[]): string {
  return args.map(formatArg).join(' ');
}

function formatArg(a: unknown): string {
  if (typeof a === 'string') return a;
  if (a instanceof Error) return a.stack ?? `${a.name}: ${a.message}`;
  if (a === undefined || typeof a === 'function' || typeof a === 'symbol') return String(a);
  if (typeof a !== 'object' || a === null) return String(a);
  try {
    return JSON.stringify(a, jsonSafe()) ?? String(a);
  } catch (err) {
    return `[unserialisable ${(err as Error).message}]`;
  }
}

function jsonSafe(): (this: unknown, key: string, value: unknown) => unknown {
  const ancestors: unknown[] = [];
  return function (this: unknown, _key: string, value: unknown): unknown {
    if (typeof value === 'bigint') return value.toString();
    if (typeof value !== 'object' || value === null) return value;
    while (ancestors.length > 0 && ancestors[ancestors.length - 1] !== this) ancestors.pop();
    if (ancestors.includes(value)) return '[Circular]';
    ancestors.push(value);
    return value;
  };
}

const SURROGATE = /[\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `line` made storable: lone surrogates replaced (invalid UTF-8 to MySQL), within `maxChars` ({@link cutText}). */
export function cutLine(line: string, maxChars = LOG_LINE_MAX_CHARS): string {
  return cutText(SURROGATE.test(line) ? line.replace(LONE_SURROGATE, '\uFFFD') : line, maxChars);
}

/** `ctx.log` without a writer (unit tests): stdout only, lines formatted and cut as kept ones are. */
export function stdoutLog(logger: LoggerService): HandlerLog {
  const line = (args: unknown[]) => cutLine(printableArgs(args));
  return {
    info: (...a) => logger.log(line(a)),
    warn: (...a) => logger.warn(line(a)),
    error: (...a) => logger.error(line(a)),
  };
}

/** {@link formatLogArgs} that never throws at the handler (an Error whose `stack` getter throws did). */
export function printableArgs(args: unknown[]): string {
  try {
    return formatLogArgs(args);
  } catch (err) {
    return `[tickwheel] log arguments could not be printed (${err instanceof Error ? err.name : typeof err})`;
  }
}
