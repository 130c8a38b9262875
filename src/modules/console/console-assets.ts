import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PAGE_HEADERS, pageCsp } from '../../common/index.js';

/** The console's CSP (docs/console.md "Safety"): no inline block; uPlot and Preact style through the CSSOM. */
export const CONSOLE_CSP = pageCsp();

/** The headers of every console answer (the page and its assets). */
export const CONSOLE_HEADERS: Record<string, string> = { 'Content-Security-Policy': CONSOLE_CSP, ...PAGE_HEADERS };

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** One file of the bundle, read once: bytes, content type and a strong ETag. */
export interface ConsoleFile {
  body: Buffer;
  type: string;
  etag: string;
}

/**
 * The built console (`npm run build` bundles it into dist/console, scripts/build-lib.mjs), looked for above this
 * module: dist/console beside dist/src when built, the repository's dist/console when run from the sources (jest).
 * Null when absent (a build without it): /console then answers 503 saying so.
 */
export function findConsoleDir(from = dirname(fileURLToPath(import.meta.url))): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    for (const candidate of [join(dir, 'console'), join(dir, 'dist', 'console')])
      if (existsSync(join(candidate, 'assets', 'console.js')) && existsSync(join(candidate, 'index.html')))
        return candidate;
    if (dirname(dir) === dir) return null;
  }
}

/** Every file of the console by its URL name: `index.html` and `assets/<name>`; nothing else is ever served. */
export function loadConsole(dir: string): Map<string, ConsoleFile> {
  const read = (path: string): ConsoleFile => {
    const body = readFileSync(path);
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    return { body, type: TYPES[extname(path)] ?? 'application/octet-stream', etag };
  };
  const files = new Map<string, ConsoleFile>([['index.html', read(join(dir, 'index.html'))]]);
  for (const name of readdirSync(join(dir, 'assets')))
    if (TYPES[extname(name)]) files.set(`assets/${name}`, read(join(dir, 'assets', name)));
  return files;
}
