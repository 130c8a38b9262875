// Builds dist/ once if it is missing, so `npm run tw` etc. work right after `npm ci` (npm start builds too).
// With --fresh it also rebuilds when a file under src/ or examples/ is newer than dist/src/main.js (as the
// test setup does): `npm run chaos` must test the sources as they are.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { join } from 'node:path';

function newest(dir) {
  let m = 0;
  if (!existsSync(dir)) return m;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    m = Math.max(m, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return m;
}

const main = 'dist/src/main.js';
const stale =
  process.argv.includes('--fresh') &&
  existsSync(main) &&
  statSync(main).mtimeMs < Math.max(newest('src'), newest('examples'));
if (!existsSync(main) || stale) execSync('npm run build', { stdio: 'inherit' });
