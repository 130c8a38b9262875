import { type Checkpoint, JobFailure } from 'tickwheel/executor';

/** What a task of `export.resumable` asks for (README.md here). */
export interface ExportParams {
  /** File name inside EXPORT_DIR: letters, digits, `.`, `_`, `-` (no path). */
  file: string;
  /** Pages to write, 10 rows each: 1..100,000. */
  pages: number;
  /** Store a checkpoint after every this many pages: 1..pages (default 5). */
  checkpointEvery: number;
  /** Pause after each page, ms: 0..60,000 (default 0); stands for the time a real page takes to fetch. */
  pageDelayMs: number;
}

/** Where an attempt starts: the next page to write and the export file's length up to it (bytes). */
export interface ExportCheckpoint {
  nextPage: number;
  bytes: number;
}

const FILE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

function intIn(v: unknown, min: number, max: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
}

/** The params, checked. @throws JobFailure (not retried: another attempt would refuse them too) naming the field. */
export function parseExportParams(raw: unknown): ExportParams {
  const p = (raw ?? {}) as Record<string, unknown>;
  const bad = (field: string, rule: string) =>
    new JobFailure(`params.${field} ${rule}`, undefined, { retryable: false });
  if (typeof p.file !== 'string' || !FILE.test(p.file)) throw bad('file', 'must be a file name (no path)');
  if (!intIn(p.pages, 1, 100_000)) throw bad('pages', 'must be an integer 1..100000');
  const every = p.checkpointEvery ?? 5;
  if (!intIn(every, 1, p.pages)) throw bad('checkpointEvery', `must be an integer 1..${p.pages}`);
  const delay = p.pageDelayMs ?? 0;
  if (!intIn(delay, 0, 60_000)) throw bad('pageDelayMs', 'must be an integer 0..60000');
  return { file: p.file, pages: p.pages, checkpointEvery: every, pageDelayMs: delay };
}

/** Where to resume from `last` (null or a state this handler did not write: from the start). */
export function resumePoint(last: Checkpoint | null, pages: number): ExportCheckpoint {
  const s = (last?.state ?? null) as Partial<ExportCheckpoint> | null;
  if (s && intIn(s.nextPage, 0, pages) && intIn(s.bytes, 0, Number.MAX_SAFE_INTEGER)) {
    return { nextPage: s.nextPage, bytes: s.bytes };
  }
  return { nextPage: 0, bytes: 0 };
}

/** The 10 CSV rows of page `page` (ids page*10 .. page*10+9). */
export function renderPage(page: number): string {
  let out = '';
  for (let i = page * 10; i < page * 10 + 10; i++) out += `${i},customer-${i}\n`;
  return out;
}
