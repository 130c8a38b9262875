// The typed client (README "API"): submit a task and poll it until it is final. Run it from the repository
// after `npm run build` (the package entry `tickwheel/client` is dist/src/client), beside a standalone server:
//   node examples/client/submit-and-poll.mjs [requestId]
// Credentials: TICKWHEEL_APP_ID and TICKWHEEL_SECRET, else DATA_DIR/credentials.json (./data by default).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTickwheelClient, unwrap } from 'tickwheel/client';

const { appId, secret } = process.env.TICKWHEEL_APP_ID
  ? { appId: process.env.TICKWHEEL_APP_ID, secret: process.env.TICKWHEEL_SECRET }
  : JSON.parse(readFileSync(join(process.env.DATA_DIR ?? 'data', 'credentials.json'), 'utf8'));
const client = createTickwheelClient({ baseUrl: process.env.TICKWHEEL_URL ?? 'http://localhost:3000', appId, secret });

const requestId = process.argv[2] ?? `example-${Date.now()}`;
const accepted = unwrap(await client.POST('/api/tasks', { body: { requestId, handler: 'noop', params: { hi: 1 } } }));
console.log(`submitted ${accepted.requestId}: ${accepted.status}`);

let task;
do {
  await new Promise((r) => setTimeout(r, 200));
  task = unwrap(await client.GET('/api/tasks/{requestId}', { params: { path: { requestId } } }));
} while (!['SUCCESS', 'FAILED', 'TIMEOUT', 'CANCELLED'].includes(task.status));
console.log(`${task.requestId} ${task.status} after ${task.attempt} attempt(s): ${JSON.stringify(task.result)}`);
