import { createHash } from 'node:crypto';

/** Inline blocks a page's CSP allows by hash (CSP3 "hash-source"): `<script>` texts, `<style>` and `style=` texts. */
export interface InlineBlocks {
  scripts: string[];
  styles: string[];
}

/**
 * The Content-Security-Policy of the pages Tickwheel serves (the console, docs/console.md "Safety"; Swagger UI,
 * docs/api.md "Swagger UI"): scripts, styles, images and calls from this origin only, plus the page's own `inline`
 * blocks by sha256; no other inline script or style, no eval, no plugin, no base or form target, never framed.
 */
export function pageCsp(inline: InlineBlocks = { scripts: [], styles: [] }): string {
  const hashes = (blocks: string[]) => [...new Set(blocks)].map((b) => ` 'sha256-${sha256(b)}'`).join('');
  return [
    "default-src 'none'",
    `script-src 'self'${hashes(inline.scripts)}`,
    `style-src 'self'${inline.styles.length > 0 ? " 'unsafe-hashes'" : ''}${hashes(inline.styles)}`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The headers of every page answer besides its CSP (the page, its assets): never framed, sniffed or referred. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64');
}
