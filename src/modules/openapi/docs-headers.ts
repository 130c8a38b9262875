import { createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

/**
 * The /docs Content-Security-Policy (docs/api.md "Swagger UI"), as the console's (docs/console.md "Safety headers")
 * but for Swagger UI's page: its scripts, styles, images and calls from this origin, plus the page's own inline
 * blocks by hash (`inline`: the signing script, Swagger's two style elements and its one style attribute); no other
 * inline script or style, no eval, no plugin, no base or form target, never framed.
 */
export function docsCsp(inline: { scripts: string[]; styles: string[] } = { scripts: [], styles: [] }): string {
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

/** The headers of every /docs answer besides the CSP (the page, its assets, the spec): the console's. */
export const DOCS_HEADERS: Record<string, string> = {
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/**
 * The inline blocks of an HTML page: the text of each `<script>` without `src`, and of each `<style>` element and
 * `style` attribute, exactly as a browser hashes them (CSP3 "hash-source").
 */
export function inlineBlocks(html: string): { scripts: string[]; styles: string[] } {
  const all = (re: RegExp) => [...html.matchAll(re)].map((m) => m[1]);
  return {
    scripts: all(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi),
    styles: [...all(/<style[^>]*>([\s\S]*?)<\/style>/gi), ...all(/\sstyle="([^"]*)"/gi)],
  };
}

/**
 * Express middleware of every /docs path, mounted before SwaggerModule's routes: the safety headers, and a CSP
 * allowing the inline blocks of the HTML page being sent. That page is built once by @nestjs/swagger from the
 * fixed options of swagger-ui.ts and its own template, with nothing of the request in it, so hashing its blocks as
 * sent allows exactly them, and stays right when a library upgrade changes the template. Any other answer (assets,
 * the spec) gets the policy without hashes.
 */
export function docsSafetyHeaders(): (req: Request, res: Response, next: NextFunction) => void {
  const seen = new Map<string, string>(); // html -> its CSP: two pages (/docs and /docs/), built once each
  return (_req, res, next) => {
    res.set(DOCS_HEADERS);
    res.set('Content-Security-Policy', docsCsp());
    const send = res.send.bind(res);
    res.send = (body?: unknown) => {
      if (typeof body === 'string' && /^\s*(<!--[\s\S]*?-->\s*)?<!DOCTYPE html>/i.test(body)) {
        let csp = seen.get(body);
        if (csp === undefined) seen.set(body, (csp = docsCsp(inlineBlocks(body))));
        if (seen.size > 8) seen.clear(); // never grows: the pages are fixed, this only guards a surprise
        res.set('Content-Security-Policy', csp);
      }
      return send(body);
    };
    next();
  };
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64');
}
