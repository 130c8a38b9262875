import type { NextFunction, Request, Response } from 'express';
import { type InlineBlocks, PAGE_HEADERS, pageCsp } from '../../common/index.js';

/**
 * The inline blocks of an HTML page: the text of each `<script>` without `src`, and of each `<style>` element and
 * `style` attribute, exactly as a browser hashes them (CSP3 "hash-source").
 */
export function inlineBlocks(html: string): InlineBlocks {
  const all = (re: RegExp) => [...html.matchAll(re)].map((m) => m[1]);
  return {
    scripts: all(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi),
    styles: [...all(/<style[^>]*>([\s\S]*?)<\/style>/gi), ...all(/\sstyle="([^"]*)"/gi)],
  };
}

/**
 * Express middleware of every /docs path, mounted before SwaggerModule's routes: the console's safety headers
 * (docs/api.md "Swagger UI"), and a CSP
 * allowing the inline blocks of the HTML page being sent. That page is built once by @nestjs/swagger from the
 * fixed options of swagger-ui.ts and its own template, with nothing of the request in it, so hashing its blocks as
 * sent allows exactly them, and stays right when a library upgrade changes the template. Any other answer (assets,
 * the spec) gets the policy without hashes.
 */
export function docsSafetyHeaders(): (req: Request, res: Response, next: NextFunction) => void {
  const seen = new Map<string, string>(); // html -> its CSP: two pages (/docs and /docs/), built once each
  return (_req, res, next) => {
    res.set(PAGE_HEADERS);
    res.set('Content-Security-Policy', pageCsp());
    const send = res.send.bind(res);
    res.send = (body?: unknown) => {
      if (typeof body === 'string' && /^\s*(<!--[\s\S]*?-->\s*)?<!DOCTYPE html>/i.test(body)) {
        let csp = seen.get(body);
        if (csp === undefined) seen.set(body, (csp = pageCsp(inlineBlocks(body))));
        if (seen.size > 8) seen.clear(); // never grows: the pages are fixed, this only guards a surprise
        res.set('Content-Security-Policy', csp);
      }
      return send(body);
    };
    next();
  };
}
