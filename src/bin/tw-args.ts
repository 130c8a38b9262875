import { BOUNDS } from '../common/index.js';

/** What `tw` was asked to do: one request (with how to print it), the usage, or a usage error. */
export type TwCommand =
  | { kind: 'help' }
  | { kind: 'usage-error'; message: string }
  | {
      kind: 'request';
      method: string;
      path: string;
      body?: string;
      include: boolean;
      json: boolean;
      headers: Record<string, string>;
    };

/** The trigger types a schedule preview takes (docs/trigger.md). */
export const PREVIEW_TYPES = ['CRON', 'FIXED_RATE', 'FIXED_DELAY', 'ONE_SHOT'] as const;
/** Most fire times one preview answers (POST /api/schedules/preview `count`). */
export const MAX_PREVIEW_COUNT = BOUNDS.previewCount.max;

export const TW_USAGE = `usage: npm run tw -- [--include] [--json] [-H 'Name: value']... METHOD /path [JSON body]
       npm run tw -- [--include] [--json] preview '<expr>' [--type T] [--tz Zone] [--from ISO] [-n N]
       npm run tw -- [--include] [--json] notify <rule> <kind> [--job CODE] [--email a@b,…] [option]...
       npm run tw -- --help

Sends one signed request to TICKWHEEL_URL (default http://localhost:3000) as TICKWHEEL_APP_ID /
TICKWHEEL_SECRET, else as the app in $DATA_DIR/credentials.json (default ./data).

stdout gets only the answer's body: pretty JSON, or one compact line with --json; nothing when there is
none. So \`npm run tw -- GET /api/jobs | jq .\` works. stderr gets "tw: HTTP <status>" when the answer is
not a 2xx, and with --include the status line and every header of any answer. -H (--header) adds a request
header, e.g. -H 'Idempotency-Key: 7f3c…' (docs/api.md "Idempotency"); the signing headers are tw's own.

preview: the next fire times of a trigger, without a job (POST /api/schedules/preview).
  --type  CRON (default), FIXED_RATE, FIXED_DELAY or ONE_SHOT
  --tz    IANA zone of the expression (default UTC)
  --from  ISO-8601 instant with Z or an offset to count from (default now)
  -n      how many fire times, 1-${MAX_PREVIEW_COUNT} (default ${BOUNDS.previewCount.default})

notify: creates or replaces the app's notification rule <rule> (PUT /api/notifications/rules/<rule>,
docs/notifications.md). <kind>: final-failure, consecutive-failures, recovery, deadline, late-start,
handler-unavailable or callback-host-failing. Durations take ms or a unit: 500ms, 30s, 10m, 2h, 1d.
  --job CODE  --handler NAME  --target JOB|TASK|ANY  --count N  --within D  --finish-by HH:MM  --tz Zone
  --threshold D  --quiet D  --group subject|rule  --disabled
  --email a@b,c@d  --webhook URL  --chat URL   (each may repeat; together at most 5 channels)

Exit code: 0 on a 2xx, 1 on a 4xx or 5xx, 2 on a usage error or a server it cannot reach.
`;

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);
const err = (message: string): TwCommand => ({ kind: 'usage-error', message });

/**
 * Parses `tw`'s arguments (after `npm run tw --`); pure, never exits. `--include`, `--json` and `--help` may
 * come anywhere; a body must be valid JSON (checked here so a typo never reaches the server).
 */
export function parseTwArgs(argv: readonly string[]): TwCommand {
  const rest: string[] = [];
  let include = false;
  let json = false;
  const headers: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-H' || a === '--header') {
      const h = headerOf(argv[++i]);
      if (typeof h === 'string') return err(h);
      headers[h[0]] = h[1];
    } else if (a === '--include' || a === '-i') include = true;
    else if (a === '--json') json = true;
    else if (a === '--help' || a === '-h') return { kind: 'help' };
    else rest.push(a);
  }
  if (rest[0] === 'preview' || rest[0] === 'notify') {
    const built = rest[0] === 'preview' ? previewRequest(rest.slice(1)) : notifyRequest(rest.slice(1));
    return typeof built === 'string' ? err(built) : { kind: 'request', ...built, include, json, headers };
  }
  const [method, path, body, extra] = rest;
  if (!method || !path) return err('METHOD and /path are needed');
  if (!METHODS.has(method.toUpperCase())) return err(`unknown METHOD '${method}'`);
  if (!path.startsWith('/') || path.startsWith('//')) return err(`the path must start with one /, got '${path}'`);
  if (extra !== undefined) return err(`unexpected argument '${extra}' (quote the JSON body as one argument)`);
  if (body !== undefined) {
    try {
      JSON.parse(body);
    } catch (e) {
      return err(`body is not valid JSON: ${(e as Error).message}`);
    }
  }
  return { kind: 'request', method: method.toUpperCase(), path, body, include, json, headers };
}

const SIGNING = new Set(['x-app-id', 'x-timestamp', 'x-nonce', 'x-signature']);

/** `Name: value` of a -H argument, or the usage error: a token name (RFC 9110 §5.6.2), not a signing header. */
function headerOf(arg: string | undefined): [string, string] | string {
  const m = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*)$/.exec(arg ?? '');
  if (!m) return `-H takes 'Name: value', got '${arg ?? ''}'`;
  if (SIGNING.has(m[1].toLowerCase())) return `-H ${m[1]}: tw signs the request itself`;
  return [m[1], m[2].trim()];
}

/**
 * The request of `tw preview '<expr>' [--type T] [--tz Zone] [--from ISO] [-n N]`, per the preview contract:
 * POST /api/schedules/preview with only the fields given (the server's defaults for the rest). A string is
 * the usage error; the server still validates the values (its 400 names the field).
 */
export function previewRequest(args: readonly string[]): { method: 'POST'; path: string; body: string } | string {
  const body: Record<string, unknown> = {};
  const flags: Record<string, string> = {
    '--type': 'triggerType',
    '--tz': 'timeZone',
    '--from': 'from',
    '-n': 'count',
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const field = flags[a];
    if (field !== undefined) {
      const v = args[++i];
      if (v === undefined) return `${a} needs a value`;
      body[field] = v;
    } else if (a.startsWith('-') && a.length > 1 && !/^-\d/.test(a)) {
      return `unknown preview option '${a}'`;
    } else if (body.triggerExpr === undefined) {
      body.triggerExpr = a;
    } else {
      return `unexpected argument '${a}' (quote the expression as one argument)`;
    }
  }
  if (body.triggerExpr === undefined) return "preview needs the expression, e.g. preview '0 9 * * 1-5'";
  if (body.triggerType !== undefined) {
    body.triggerType = String(body.triggerType).toUpperCase();
    if (!(PREVIEW_TYPES as readonly string[]).includes(body.triggerType as string))
      return `--type must be one of ${PREVIEW_TYPES.join(', ')}`;
  }
  if (body.count !== undefined) {
    const n = Number(body.count);
    if (!/^\d+$/.test(String(body.count)) || n < 1 || n > MAX_PREVIEW_COUNT)
      return `-n takes a whole number 1-${MAX_PREVIEW_COUNT}, got '${String(body.count)}'`;
    body.count = n;
  }
  return { method: 'POST', path: '/api/schedules/preview', body: JSON.stringify(body) };
}

/** What stdout gets for an answer's body: '' for none, text as it came, JSON pretty or (`json`) one line. */
export function formatBody(body: unknown, json: boolean): string {
  if (body === null || body === undefined || body === '') return '';
  if (typeof body === 'string') return body.endsWith('\n') ? body : `${body}\n`;
  return `${json ? JSON.stringify(body) : JSON.stringify(body, null, 2)}\n`;
}

/** The `--include` block for stderr: `HTTP <status> <text>` then one `name: value` line per header. */
export function includeBlock(status: number, statusText: string, headers: Iterable<[string, string]>): string {
  const lines = [`HTTP ${status}${statusText ? ` ${statusText}` : ''}`];
  for (const [k, v] of headers) lines.push(`${k}: ${v}`);
  return `${lines.join('\n')}\n\n`;
}

/** `500ms`, `30s`, `10m`, `2h`, `1d` or bare ms, as whole ms; null for anything else. */
export function durationMs(text: string): number | null {
  const m = /^(\d{1,9})(ms|s|m|h|d)?$/.exec(text.trim());
  if (!m) return null;
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] ?? 'ms'] as number;
  return Number(m[1]) * unit;
}

const NOTIFY_VALUES: Record<string, [string, 'text' | 'int' | 'duration' | 'upper']> = {
  '--job': ['jobCode', 'text'],
  '--handler': ['handler', 'text'],
  '--target': ['target', 'upper'],
  '--count': ['count', 'int'],
  '--within': ['withinMs', 'duration'],
  '--finish-by': ['finishBy', 'text'],
  '--tz': ['timeZone', 'text'],
  '--threshold': ['thresholdMs', 'duration'],
  '--quiet': ['quietMs', 'duration'],
  '--group': ['groupBy', 'upper'],
};

/**
 * The request of `tw notify <rule> <kind> [options]`: PUT /api/notifications/rules/<rule> with the whole rule
 * (docs/notifications.md "Rules"). A string is the usage error; the server validates the values (its 400 names
 * the field).
 */
export function notifyRequest(args: readonly string[]): { method: 'PUT'; path: string; body: string } | string {
  const [name, kind, ...opts] = args;
  if (!name || !kind || name.startsWith('-') || kind.startsWith('-'))
    return 'notify needs the rule name and its kind, e.g. notify nightly-twice consecutive-failures --count 2';
  const body: Record<string, unknown> = { kind: kind.toUpperCase().replace(/-/g, '_') };
  const channels: unknown[] = [];
  for (let i = 0; i < opts.length; i++) {
    const a = opts[i];
    if (a === '--disabled') {
      body.enabled = false;
      continue;
    }
    const v = opts[++i];
    if (v === undefined) return `${a} needs a value`;
    if (a === '--email') channels.push({ type: 'email', to: v.split(',').map((t) => t.trim()) });
    else if (a === '--webhook' || a === '--chat') channels.push({ type: a.slice(2), url: v });
    else if (NOTIFY_VALUES[a] === undefined) return `unknown notify option '${a}'`;
    else {
      const [field, type] = NOTIFY_VALUES[a];
      const n = type === 'int' ? (/^\d{1,9}$/.test(v) ? Number(v) : null) : type === 'duration' ? durationMs(v) : 0;
      if (n === null)
        return `${a} takes ${type === 'int' ? 'a whole number' : 'a duration such as 30s or 2h'}, got '${v}'`;
      body[field] = type === 'upper' ? v.toUpperCase() : type === 'text' ? v : n;
    }
  }
  if (channels.length > 0) body.channels = channels;
  return { method: 'PUT', path: `/api/notifications/rules/${encodeURIComponent(name)}`, body: JSON.stringify(body) };
}
