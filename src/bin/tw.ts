/**
 * `npm run tw -- [--include] [--json] METHOD PATH [JSON]` (or `preview '<expr>' …`): one signed request; stdout
 * gets only the answer's body, stderr the status (see TW_USAGE in tw-args.ts, README "Start it").
 * Example: npm run tw -- GET /api/tasks/hello-1 | jq .status
 * Exit code 0 for 2xx, 1 for 4xx/5xx, 2 for a usage error or an unreachable server.
 */
import { STATUS_CODES } from 'node:http';
import { clientFromEnv, exitQuietlyOnClosedPipe, requestOrExit, unauthorizedHint } from './cli-credentials.js';
import { formatBody, includeBlock, parseTwArgs, TW_USAGE } from './tw-args.js';

exitQuietlyOnClosedPipe();

const cmd = parseTwArgs(process.argv.slice(2));
if (cmd.kind === 'help') {
  process.stdout.write(TW_USAGE);
  process.exit(0);
}
if (cmd.kind === 'usage-error') {
  process.stderr.write(`tw: ${cmd.message}\n${TW_USAGE.split('\n\n')[0]}\n`);
  process.exit(2);
}
const client = clientFromEnv();
const res = await requestOrExit('tw', client, cmd.method, cmd.path, cmd.body, cmd.headers);
const ok = res.status >= 200 && res.status < 300;
if (cmd.include) process.stderr.write(includeBlock(res.status, STATUS_CODES[res.status] ?? '', res.headers));
else if (!ok) process.stderr.write(`tw: HTTP ${res.status} ${STATUS_CODES[res.status] ?? ''}`.trimEnd() + '\n');
process.stdout.write(formatBody(res.body, cmd.json));
if (res.status === 401) process.stderr.write(`tw: ${unauthorizedHint()}`);
process.exitCode = ok ? 0 : 1; // not process.exit(): piped stdout must flush first
