// Builds dist/ once if it is missing, so `npm run tw` etc. work right after `npm ci` (npm start builds too).
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';
if (!existsSync('dist/src/main.js')) execSync('npm run build', { stdio: 'inherit' });
