/**
 * `npm run import-crontab -- FILE [--tz ZONE] [--enable]`: sends a cron.d file to a running Tickwheel
 * (POST /api/jobs/import-crontab) and prints the jobs created/updated and every line not taken, with why.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { clientFromEnv, exitQuietlyOnClosedPipe, requestOrExit, unauthorizedHint } from './cli-credentials.js';

exitQuietlyOnClosedPipe();

const args = process.argv.slice(2);
const file = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--tz');
const tzAt = args.indexOf('--tz');
const timeZone = tzAt >= 0 ? args[tzAt + 1] : undefined;
if (!file || (tzAt >= 0 && !timeZone)) {
  process.stderr.write('usage: npm run import-crontab -- FILE [--tz ZONE] [--enable]\n');
  process.exit(2);
}
if (!existsSync(file)) {
  process.stderr.write(`no such file: ${file}\n`);
  process.exit(2);
}
const fileName = basename(file)
  .replace(/[^A-Za-z0-9_.-]/g, '_')
  .slice(0, 64);
const res = await requestOrExit<{
  created: string[];
  updated: string[];
  rejected: Array<{ lineNo: number; line: string; reason: string }>;
  rejectedTotal: number;
}>('import-crontab', clientFromEnv(), 'POST', '/api/jobs/import-crontab', {
  fileName,
  content: readFileSync(file, 'utf8'),
  timeZone,
  enable: args.includes('--enable'),
});
if (res.status !== 200) {
  process.stderr.write(`${res.status} ${JSON.stringify(res.body)}\n`);
  if (res.status === 401) process.stderr.write(`import-crontab: ${unauthorizedHint()}`);
  process.exit(1);
}
const { created, updated, rejected, rejectedTotal } = res.body;
const state = args.includes('--enable') ? 'enabled' : 'paused (resume with POST /api/jobs/<code>/resume)';
process.stdout.write(
  `${file}: ${created.length} created, ${updated.length} updated, ${rejectedTotal} line(s) not taken; zone ` +
    `${timeZone ?? 'UTC'}; jobs ${state}\n`,
);
process.stdout.write('(imported jobs use the shell handler: executors need TICKWHEEL_ALLOW_SHELL=true)\n');
for (const code of created) process.stdout.write(`  + ${code}\n`);
for (const code of updated) process.stdout.write(`  ~ ${code}\n`);
for (const r of rejected) process.stdout.write(`  - line ${r.lineNo}: ${r.reason}\n      ${r.line}\n`);
if (rejectedTotal > rejected.length)
  process.stdout.write(
    `  … and ${rejectedTotal - rejected.length} more line(s) not taken (the answer lists the first ` +
      `${rejected.length})\n`,
  );
