/**
 * `npm run tw -- METHOD PATH [JSON]`: one signed request, answer printed as JSON.
 * Example: npm run tw -- POST /api/tasks '{"handler":"http","params":{"url":"http://localhost:3000/health/live"}}'
 * Exit code 0 for 2xx, 1 otherwise.
 */
import { clientFromEnv, exitQuietlyOnClosedPipe, requestOrExit, unauthorizedHint } from './cli-credentials.js';

exitQuietlyOnClosedPipe();

const [method, path, body] = process.argv.slice(2);
if (!method || !path || !path.startsWith('/')) {
  process.stderr.write('usage: npm run tw -- METHOD /path [JSON body]\n');
  process.exit(2);
}
if (body !== undefined) {
  try {
    JSON.parse(body);
  } catch (err) {
    process.stderr.write(`body is not valid JSON: ${(err as Error).message}\n`);
    process.exit(2);
  }
}
const client = clientFromEnv();
const res = await requestOrExit('tw', client, method.toUpperCase(), path, body);
process.stdout.write(
  res.body === null || res.body === undefined || res.body === ''
    ? `${res.status}\n`
    : `${res.status}\n${JSON.stringify(res.body, null, 2)}\n`,
);
if (res.status === 401) process.stderr.write(`tw: ${unauthorizedHint()}`);
process.exitCode = res.status >= 200 && res.status < 300 ? 0 : 1; // not process.exit(): piped stdout must flush first
