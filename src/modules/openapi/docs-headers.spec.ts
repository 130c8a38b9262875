import { createHash } from 'node:crypto';
import { pageCsp } from '../../common/index.js';
import { inlineBlocks } from './docs-headers.js';

const sha = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;

describe('/docs safety headers', () => {
  const html =
    '<!-- x -->\n<!DOCTYPE html><html><head><style>\n  body { margin: 0 }\n</style></head><body>' +
    '<svg style="position:absolute;width:0"></svg><script src="a.js"> </script><script>window.x = 1;</script>' +
    '<style>\n  \n</style></body></html>';

  it("should find the page's inline scripts, style elements and style attributes, never a script with src", () => {
    expect(inlineBlocks(html)).toEqual({
      scripts: ['window.x = 1;'],
      styles: ['\n  body { margin: 0 }\n', '\n  \n', 'position:absolute;width:0'],
    });
  });

  it('should allow exactly those blocks by hash, and nothing inline or evaluated otherwise', () => {
    const csp = pageCsp(inlineBlocks(html));
    expect(csp).toContain(`script-src 'self' ${sha('window.x = 1;')};`);
    expect(csp).toContain(`style-src 'self' 'unsafe-hashes' ${sha('\n  body { margin: 0 }\n')}`);
    expect(csp).toContain(sha('position:absolute;width:0'));
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(pageCsp()).toContain("script-src 'self'; style-src 'self'; img-src 'self' data:");
  });
});
