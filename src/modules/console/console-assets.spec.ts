import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONSOLE_CSP, findConsoleDir, loadConsole } from './console-assets.js';

describe('console assets', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'tw-console-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** A built console at `dir`: index.html and assets/ with the given files. */
  const built = (dir: string, assets: Record<string, string> = { 'console.js': 'js', 'console.css': 'css' }) => {
    mkdirSync(join(dir, 'assets'), { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html>');
    for (const [name, body] of Object.entries(assets)) writeFileSync(join(dir, 'assets', name), body);
  };

  it('should find dist/console above a module of dist/src, and the repository dist/console from src/', () => {
    built(join(root, 'dist', 'console'));
    mkdirSync(join(root, 'dist', 'src', 'modules', 'console'), { recursive: true });
    mkdirSync(join(root, 'src', 'modules', 'console'), { recursive: true });
    expect(findConsoleDir(join(root, 'dist', 'src', 'modules', 'console'))).toBe(join(root, 'dist', 'console'));
    expect(findConsoleDir(join(root, 'src', 'modules', 'console'))).toBe(join(root, 'dist', 'console'));
  });

  it('should not take the unbuilt sources (console/ without assets) for the bundle, and say null when none', () => {
    mkdirSync(join(root, 'console', 'src'), { recursive: true });
    writeFileSync(join(root, 'console', 'index.html'), '<!doctype html>');
    expect(findConsoleDir(join(root, 'console', 'src'))).toBeNull();
  });

  it('should serve only index.html and the assets of known types, each with a strong ETag', () => {
    built(root, { 'console.js': 'a', 'console.css': 'b', 'notes.txt': 'c', 'console.js.map': 'd' });
    const files = loadConsole(root);
    expect([...files.keys()].sort()).toEqual(['assets/console.css', 'assets/console.js', 'index.html']);
    expect(files.get('assets/console.js')!.type).toBe('text/javascript; charset=utf-8');
    expect(files.get('assets/console.js')!.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(files.get('assets/console.js')!.etag).not.toBe(files.get('assets/console.css')!.etag);
  });

  it('should allow nothing from another origin, no inline code, and no framing', () => {
    expect(CONSOLE_CSP).toContain("default-src 'none'");
    expect(CONSOLE_CSP).toContain("frame-ancestors 'none'");
    expect(CONSOLE_CSP).not.toMatch(/unsafe-inline|unsafe-eval|\*|https?:/);
  });
});
