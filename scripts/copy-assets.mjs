// Copies non-TS assets (Redis Lua scripts) next to the compiled JS, as nest-cli.json's "assets" would.
import { cpSync, readdirSync, statSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (p.endsWith('.lua')) {
      const out = join('dist', p);
      mkdirSync(dirname(out), { recursive: true });
      cpSync(p, out);
    }
  }
}
walk('src');
