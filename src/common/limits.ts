/** Every bound on stored or answered data (docs/api.md "Limits"); bytes of JSON UTF-8, chars UTF-16 units. */

/** Bytes a MariaDB/MySQL TEXT column holds; a longer value fails a strict write or is cut by INSERT IGNORE. */
export const TEXT_COLUMN_BYTES = 65_535;

export const MAX_BODY_BYTES = 2 * 1024 * 1024;

/** JSON values of one body (validated, some twice); 1,000 tasks with 100-value params are 104,002 (docs/api.md). */
export const MAX_BODY_VALUES = 105_000;
/** Keys of one body object (class-transformer dedupes keys in quadratic time). */
export const MAX_OBJECT_KEYS = 1_000;

export const MAX_PARAMS_BYTES = TEXT_COLUMN_BYTES;
export const MAX_SHARD_PARAMS_BYTES = TEXT_COLUMN_BYTES;
/** A stored handler result; a longer one is stored as `{truncated: true, excerpt}`. */
export const MAX_RESULT_BYTES = TEXT_COLUMN_BYTES;
export const MAX_ERROR_CHARS = 4_000;

export const MAX_BATCH_TASKS = 1000;
export const MAX_SHARDS = 1000;

export const MAX_BACKFILL_FIRES = 1000;
export const MAX_BACKFILL_INSTANCES = 10_000;

/** Job code, handler and requestId (VARCHAR(128)); description, routing key, expression (255); zone (64). */
export const MAX_CODE_CHARS = 128;
export const MAX_TEXT_CHARS = 255;
export const MAX_ZONE_CHARS = 64;
export const MAX_FILE_NAME_CHARS = 64;

/** A callback URL (VARCHAR(2048)) and the callback registrations one app may hold (docs/callbacks.md). */
export const MAX_CALLBACK_URL_CHARS = 2048;
export const MAX_CALLBACK_REGISTRATIONS = 1000;
/** A redeliver by host (docs/callbacks.md "Redeliver"): deliveries per call, and how far back `since` may reach. */
export const MAX_REDELIVER_BY_HOST = 10_000;
export const MAX_REDELIVER_SINCE_MS = 7 * 24 * 3_600_000;

/** A crontab import's `content`, in characters, and the entries one import takes. */
export const MAX_CRONTAB_CHARS = 256 * 1024;
export const MAX_IMPORT_ENTRIES = 500;
/** What an import answer quotes: rejected lines listed, characters of a line and of its reason. */
export const MAX_IMPORT_REJECTED_LISTED = 100;
export const MAX_REJECTED_LINE_CHARS = 200;
export const MAX_REJECTED_REASON_CHARS = 300;

/** `limit` and `offset` of a list route (deep offsets cost a scan of every row skipped). */
export const MAX_LIST_LIMIT = 500;
export const MAX_LIST_OFFSET = 100_000;

/** UTF-8 bytes of `value`'s JSON (0 when JSON cannot hold it). @throws for a circular value or a BigInt. */
export function jsonBytes(value: unknown): number {
  const json = JSON.stringify(value);
  return json === undefined ? 0 : Buffer.byteLength(json, 'utf8');
}

/** `text` cut to at most `max` characters, never ending on the first half of a surrogate pair. */
export function cutChars(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = /[\uD800-\uDBFF]/.test(text[max - 1] ?? '') ? max - 1 : max;
  return text.slice(0, cut);
}

/** The mark a cut text ends with: ` …[n characters cut]` (`n` characters dropped). */
export function cutMark(n: number): string {
  return ` …[${n} characters cut]`;
}

/** The one cut of every bounded text: within `max` UTF-16 units, a cut one ending {@link cutMark} (if it fits). */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const room = max - cutMark(text.length).length;
  if (room <= 0) return cutChars(text, max);
  const kept = cutChars(text, room);
  return `${kept}${cutMark(text.length - kept.length)}`;
}

/** `text` cut to at most `max` characters, ending with '…' when it was cut (for quoting input back). */
export function excerpt(text: string, max: number): string {
  return text.length <= max ? text : `${cutChars(text, max - 1)}…`;
}

/** `value` fit to `maxBytes` as JSON (audit snapshots): its largest fields become `{"omittedBytes": n}`. */
export function fitJson(value: unknown, maxBytes: number): unknown {
  const total = jsonBytes(value);
  if (total <= maxBytes) return value;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { omittedBytes: total };
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  const bySize = Object.keys(out)
    .map((k) => [k, jsonBytes(out[k])] as const)
    .sort((a, b) => b[1] - a[1]);
  for (const [key, bytes] of bySize) {
    out[key] = { omittedBytes: bytes };
    if (jsonBytes(out) <= maxBytes) return out;
  }
  return { omittedBytes: total };
}
