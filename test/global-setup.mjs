// Jest global setup: the tests that start the real product as child processes (node dist/src/main.js)
// need dist/ built from the current sources. Build once, before any worker starts, and only when
// dist/src/main.js is missing or older than some file under src/ (or examples/).
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newest(dir) {
  let m = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    m = Math.max(m, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return m;
}

export default function globalSetup() {
  const main = 'dist/src/main.js';
  const sources = Math.max(newest('src'), newest('examples'));
  if (existsSync(main) && statSync(main).mtimeMs >= sources) return;
  process.stdout.write('\n[global-setup] building dist/ for the process-level tests\n');
  execSync('npm run build', { stdio: 'inherit' });
}
