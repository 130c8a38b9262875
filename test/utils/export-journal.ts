import { readFileSync } from 'node:fs';

/** One page the example export (examples/resumable-export) wrote: by which attempt, when (epoch ms). */
export interface JournalEntry {
  page: number;
  attempt: number;
  at: number;
}

/** The `<file>.journal` lines written so far (none when the file does not exist yet). */
export function readJournal(path: string): JournalEntry[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((l) => /^\d+ \d+ \d+$/.test(l))
    .map((l) => {
      const [page, attempt, at] = l.split(' ').map(Number);
      return { page, attempt, at };
    });
}

/** How often each page 0..pages-1 was written. */
export function pageCounts(journal: JournalEntry[], pages: number): number[] {
  const counts = Array.from({ length: pages }, () => 0);
  for (const e of journal) counts[e.page]++;
  return counts;
}

/**
 * Per attempt after the first: how many pages it wrote again that an earlier attempt had written (the work a
 * kill or stop cost), and its first page's time (to measure kill → resume).
 */
export function resumes(journal: JournalEntry[]): Array<{ attempt: number; rerun: number; firstAt: number }> {
  const attempts = [...new Set(journal.map((e) => e.attempt))].sort((a, b) => a - b);
  return attempts.slice(1).map((attempt) => {
    const done = new Set(journal.filter((e) => e.attempt < attempt).map((e) => e.page));
    const mine = journal.filter((e) => e.attempt === attempt);
    return { attempt, rerun: mine.filter((e) => done.has(e.page)).length, firstAt: mine[0].at };
  });
}
