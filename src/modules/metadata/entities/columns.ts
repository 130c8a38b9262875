import { ValueTransformer } from 'typeorm';

/**
 * bigint columns hold epoch milliseconds (UTC) or counters; mysql2 hands them back as strings, SQLite as
 * numbers. This maps both to `number` (safe: ms timestamps stay far below 2^53).
 */
export const bigintNumber: ValueTransformer = {
  to: (v: number | null | undefined) => v,
  from: (v: string | number | null) => (v === null || v === undefined ? v : Number(v)),
};

/**
 * What a JSON column holds when its text cannot be parsed (cut at 65,535 bytes, a hand edit): reading the row
 * never throws, users check for it ({@link corruptFields}), and it serialises as null.
 */
export class CorruptJson {
  /** @param bytes UTF-8 bytes of the stored text; @param cause the parser's message. */
  constructor(
    readonly bytes: number,
    readonly cause: string,
  ) {}

  toJSON(): null {
    return null;
  }
}

/** JSON kept in a text column (portable across MySQL and SQLite); unreadable text reads as a {@link CorruptJson}. */
export const jsonText: ValueTransformer = {
  to: (v: unknown) => (v === undefined ? undefined : v === null ? null : JSON.stringify(v)),
  from: (v: string | null) => {
    if (v === null || v === undefined) return v;
    try {
      return JSON.parse(v);
    } catch (err) {
      return new CorruptJson(Buffer.byteLength(String(v), 'utf8'), (err as Error).message);
    }
  },
};

/** The code a corrupt row is set aside with (its error's prefix, the quarantine metric's `reason`). */
export const CORRUPT_ROW = 'CORRUPT_ROW';

/** A field of a row whose stored JSON could not be read. */
export interface CorruptField {
  field: string;
  bytes: number;
}

/** The fields of `row` (an entity as read) whose stored JSON could not be read, in property order. */
export function corruptFields(row: object): CorruptField[] {
  return Object.entries(row)
    .filter(([, v]) => v instanceof CorruptJson)
    .map(([field, v]) => ({ field, bytes: (v as CorruptJson).bytes }));
}

/** `params is not valid JSON (65535 bytes)`: what is wrong with one field. */
export function describeCorrupt(f: CorruptField): string {
  return `${f.field} is not valid JSON (${f.bytes} bytes)`;
}

/** What is wrong with every unreadable field of `row` (joined by `; `), null for a sound row. */
export function describeCorruptRow(row: object): string | null {
  const bad = corruptFields(row);
  return bad.length === 0 ? null : bad.map(describeCorrupt).join('; ');
}

/** Why `row` cannot be used, as recorded when it is set aside (`CORRUPT_ROW: params is not …`); null if sound. */
export function corruptionOf(row: object): string | null {
  const what = describeCorruptRow(row);
  return what === null ? null : `${CORRUPT_ROW}: ${what}`;
}
