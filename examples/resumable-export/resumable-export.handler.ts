import { closeSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import { type JobContext, JobHandler, type JobHandlerImpl } from 'tickwheel/executor';
import { type ExportCheckpoint, parseExportParams, renderPage, resumePoint } from './export-params.js';

/** What a finished export returns: its file, pages, length in bytes, and the page this attempt started at. */
export interface ExportResult {
  file: string;
  pages: number;
  bytes: number;
  resumedAt: number;
  attempt: number;
}

/**
 * A long export that survives restarts (README.md here): it writes `pages` pages of rows to EXPORT_DIR/<file>,
 * storing `{nextPage, bytes}` with `ctx.checkpoint` every `checkpointEvery` pages, after an fsync, so a checkpoint
 * never points past data on disk. The next attempt (node lost, lease lost, hand-back, retry) cuts the file back to
 * the checkpoint's length and goes on from its page: at most `checkpointEvery` pages are written twice, and the
 * file ends exactly complete. On a stop (shutdown, cancel) it checkpoints where it is before it returns. Each page
 * written is also appended to `<file>.journal` (`page attempt epochMs`), which shows what was redone.
 */
@Injectable()
@JobHandler('export.resumable')
export class ResumableExportHandler implements JobHandlerImpl {
  private readonly dir = process.env.EXPORT_DIR ?? join(tmpdir(), 'tickwheel-exports');

  async execute(ctx: JobContext): Promise<ExportResult> {
    const p = parseExportParams(ctx.params);
    mkdirSync(this.dir, { recursive: true });
    const path = join(this.dir, p.file);
    const out = openSync(path, 'a');
    const journal = openSync(`${path}.journal`, 'a');
    try {
      let at = resumePoint(ctx.lastCheckpoint, p.pages);
      if (fstatSync(out).size < at.bytes) {
        ctx.log.warn(`${p.file} is shorter than its checkpoint says: exporting again from page 0`);
        at = { nextPage: 0, bytes: 0 };
      }
      ftruncateSync(out, at.bytes); // drops what an earlier attempt wrote after its last checkpoint
      const resumedAt = at.nextPage;
      if (ctx.lastCheckpoint) ctx.log.info(`resuming ${p.file} at page ${at.nextPage} of ${p.pages}`);
      const save = async (next: ExportCheckpoint) => {
        fsyncSync(out);
        await ctx.checkpoint(next);
        ctx.progress(next.nextPage / p.pages, `page ${next.nextPage} of ${p.pages}`);
        ctx.log.info(`checkpoint at page ${next.nextPage} (${next.bytes} bytes)`);
      };
      for (let page = at.nextPage; page < p.pages; page++) {
        if (ctx.signal.aborted) {
          // Stopped (shutdown hand-back, cancel, lease lost): keep the work done; refused when no longer ours.
          await save(at).catch(() => undefined);
          throw new Error(`stopped at page ${page} of ${p.pages}`, { cause: ctx.signal.reason });
        }
        at = { nextPage: page + 1, bytes: at.bytes + writeSync(out, renderPage(page)) };
        writeSync(journal, `${page} ${ctx.attempt} ${Date.now()}\n`);
        if (at.nextPage % p.checkpointEvery === 0 || at.nextPage === p.pages) await save(at);
        if (p.pageDelayMs > 0) await delay(p.pageDelayMs, undefined, { signal: ctx.signal }).catch(() => undefined);
      }
      return { file: p.file, pages: p.pages, bytes: at.bytes, resumedAt, attempt: ctx.attempt };
    } finally {
      closeSync(journal);
      closeSync(out);
    }
  }
}
