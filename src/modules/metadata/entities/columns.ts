import { ValueTransformer } from 'typeorm';

/**
 * bigint columns hold epoch milliseconds (UTC) or counters; mysql2 hands them back as strings, SQLite as
 * numbers. This maps both to `number` (safe: ms timestamps stay far below 2^53).
 */
export const bigintNumber: ValueTransformer = {
  to: (v: number | null | undefined) => v,
  from: (v: string | number | null) => (v === null || v === undefined ? v : Number(v)),
};

/** JSON kept in a text column (portable across MySQL and SQLite). */
export const jsonText: ValueTransformer = {
  to: (v: unknown) => (v === undefined ? undefined : v === null ? null : JSON.stringify(v)),
  from: (v: string | null) => (v === null || v === undefined ? v : JSON.parse(v)),
};
