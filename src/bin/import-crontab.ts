/**
 * `npm run import-crontab -- FILE [--tz ZONE] [--enable] [--map-user USER]...`: sends a cron.d file to a running
 * Tickwheel (POST /api/jobs/import-crontab) and prints the jobs created/updated, those kept paused because their
 * line names a user not mapped (`--map-user root`: "root's commands work as the app's shell uid"), and every line
 * not taken, with why.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { clientFromEnv, exitQuietlyOnClosedPipe, requestOrExit, unauthorizedHint } from './cli-credentials.js';

exitQuietlyOnClosedPipe();

const USAGE = 'usage: npm run import-crontab -- FILE [--tz ZONE] [--enable] [--map-user USER]...\n';
const VALUED = ['--tz', '--map-user'];
const args = process.argv.slice(2);
const file = args.find((a, i) => !a.startsWith('--') && !VALUED.includes(args[i - 1]));
const tzAt = args.indexOf('--tz');
const timeZone = tzAt >= 0 ? args[tzAt + 1] : undefined;
const mapAt = args.flatMap((a, i) => (a === '--map-user' ? [i + 1] : []));
const mapUsers = mapAt.map((i) => args[i]);
if (!file || (tzAt >= 0 && !timeZone) || mapUsers.some((u) => !u || u.startsWith('--'))) {
  process.stderr.write(USAGE);
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
  pausedForUser: string[];
}>('import-crontab', clientFromEnv(), 'POST', '/api/jobs/import-crontab', {
  fileName,
  content: readFileSync(file, 'utf8'),
  timeZone,
  enable: args.includes('--enable'),
  mapUsers: mapUsers.length > 0 ? mapUsers : undefined,
});
if (res.status !== 200) {
  process.stderr.write(`${res.status} ${JSON.stringify(res.body)}\n`);
  if (res.status === 401) process.stderr.write(`import-crontab: ${unauthorizedHint()}`);
  process.exit(1);
}
const { created, updated, rejected, rejectedTotal, pausedForUser } = res.body;
const state = args.includes('--enable') ? 'enabled' : 'paused (resume with POST /api/jobs/<code>/resume)';
process.stdout.write(
  `${file}: ${created.length} created, ${updated.length} updated, ${rejectedTotal} line(s) not taken; zone ` +
    `${timeZone ?? 'UTC'}; jobs ${state}\n`,
);
process.stdout.write('(imported jobs use the shell handler: executors need TICKWHEEL_ALLOW_SHELL=true)\n');
for (const code of created) process.stdout.write(`  + ${code}\n`);
for (const code of updated) process.stdout.write(`  ~ ${code}\n`);
if (pausedForUser.length > 0)
  process.stdout.write(
    `${pausedForUser.length} job(s) kept paused (pausedReason CRONTAB_USER): their line names a crontab user, but ` +
      "commands run as the app's shell uid, never as that user (see each job's description). Check that they " +
      'work so, then resume them, or import again with --map-user USER:\n' +
      pausedForUser.map((code) => `  ! ${code}\n`).join(''),
  );
for (const r of rejected) process.stdout.write(`  - line ${r.lineNo}: ${r.reason}\n      ${r.line}\n`);
if (rejectedTotal > rejected.length)
  process.stdout.write(
    `  … and ${rejectedTotal - rejected.length} more line(s) not taken (the answer lists the first ` +
      `${rejected.length})\n`,
  );
