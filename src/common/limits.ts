/**
 * Every bound on what a caller may store or be answered (issue 9 point 5), in one place; README "Limits"
 * lists them with the answer given when one is exceeded. Bytes are UTF-8 bytes of the JSON text, as the
 * database stores it; characters are UTF-16 code units (what `String.length` and class-validator count,
 * never fewer than MariaDB's characters, so a VARCHAR(n) takes any string of n of them).
 */

/** Bytes a MariaDB/MySQL TEXT column holds (utf8mb4 or not). A longer value fails a strict write, or is cut by INSERT IGNORE. */
export const TEXT_COLUMN_BYTES = 65_535;

/** A request body (the JSON parser answers 413 beyond it). */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

/**
 * JSON values (objects, arrays, strings, numbers, booleans, nulls) one request body may hold. Validation walks every
 * value, some of it more than once: 650,000 empty objects in a 2 MiB body took 1.4 s. 100,000 values hold a batch of
 * 1000 tasks of 100 values each.
 */
export const MAX_BODY_VALUES = 100_000;
/** Keys one object of a request body may have: class-transformer dedupes an object's keys in quadratic time (80,000 keys: 3 s). */
export const MAX_OBJECT_KEYS = 1_000;

/** `params` of a task, a job or a trigger-now, as JSON: the instance's (and the job's) `params` column. */
export const MAX_PARAMS_BYTES = TEXT_COLUMN_BYTES;
/** A job's `shardParams` as JSON: its column. Each shard's params merged over the job's must fit {@link MAX_PARAMS_BYTES} too. */
export const MAX_SHARD_PARAMS_BYTES = TEXT_COLUMN_BYTES;
/** A handler result as stored (its JSON); a longer one is stored as `{truncated: true, excerpt}`. */
export const MAX_RESULT_BYTES = TEXT_COLUMN_BYTES;
/** An error message as stored on an instance and its attempt, in characters (at most 16,000 bytes: fits a TEXT). */
export const MAX_ERROR_CHARS = 4_000;

/** Tasks of one POST /api/tasks/batch; a longer list is refused before its items are parsed into objects. */
export const MAX_BATCH_TASKS = 1000;
/** Shards of one fire of a SHARDING_BROADCAST job (and entries of its shardParams). */
export const MAX_SHARDS = 1000;

/** Fires one backfill request may create. */
export const MAX_BACKFILL_FIRES = 1000;
/** Instances (fires × shardTotal) one backfill request may create: they are written in one transaction. */
export const MAX_BACKFILL_INSTANCES = 10_000;

/** Job code, handler name and task requestId, in characters (their VARCHAR(128) columns). */
export const MAX_CODE_CHARS = 128;
/** Description, routing key and trigger expression, in characters (their VARCHAR(255) columns). */
export const MAX_TEXT_CHARS = 255;
/** Time zone name, in characters (its VARCHAR(64) column). */
export const MAX_ZONE_CHARS = 64;
/** A crontab import's file name, in characters: job codes are `<file>-L<line>`, within {@link MAX_CODE_CHARS}. */
export const MAX_FILE_NAME_CHARS = 64;

/**
 * A crontab import's `content`, in characters. Real cron.d files are a few hundred bytes to a few KB (those of
 * seven Debian packages: 140-802 bytes); 256 KiB holds the 500 entries one import may take at 500 characters
 * each, and keeps the parse and the answer of one request small.
 */
export const MAX_CRONTAB_CHARS = 256 * 1024;
/** Entries one crontab import takes: each is a job written with its audit row, so the request stays short. */
export const MAX_IMPORT_ENTRIES = 500;
/** Rejected lines an import answer lists (the first ones; `rejectedTotal` counts them all). */
export const MAX_IMPORT_REJECTED_LISTED = 100;
/** Characters of a rejected line, and of its reason, quoted in an import answer. */
export const MAX_REJECTED_LINE_CHARS = 200;
export const MAX_REJECTED_REASON_CHARS = 300;

/** `limit` of a list route. */
export const MAX_LIST_LIMIT = 500;
/** `offset` of a list route: deeper pages cost the database a scan of every row skipped. */
export const MAX_LIST_OFFSET = 100_000;

/** UTF-8 bytes of `value`'s JSON text (0 for a value JSON cannot hold, e.g. undefined). @throws for a circular value or a BigInt. */
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

/** `text` cut to at most `max` characters, ending with '…' when it was cut (for quoting input back). */
export function excerpt(text: string, max: number): string {
  return text.length <= max ? text : `${cutChars(text, max - 1)}…`;
}

/**
 * `value` made to fit `maxBytes` as JSON, for snapshots kept beside a change (the audit log): unchanged when it
 * fits; else an object keeps its fields but its largest ones, each replaced by `{"omittedBytes": n}`, until it
 * fits; anything else (or an object that still does not fit) becomes `{"omittedBytes": n}`.
 */
export function fitJson(value: unknown, maxBytes: number): unknown {
  const total = jsonBytes(value);
  if (total <= maxBytes) return value;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { omittedBytes: total };
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  const bySize = Object.keys(out).map((k) => [k, jsonBytes(out[k])] as const).sort((a, b) => b[1] - a[1]);
  for (const [key, bytes] of bySize) {
    out[key] = { omittedBytes: bytes };
    if (jsonBytes(out) <= maxBytes) return out;
  }
  return { omittedBytes: total };
}
