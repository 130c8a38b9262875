import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TickwheelClient, type TickwheelResponse } from '../client/tickwheel-client.js';

/**
 * Client for the bundled CLIs: TICKWHEEL_URL (default http://localhost:3000, whatever PORT says), and TICKWHEEL_APP_ID +
 * TICKWHEEL_SECRET, or else the credentials the standalone server saved in DATA_DIR/credentials.json.
 */
export function clientFromEnv(env = process.env): TickwheelClient {
  const baseUrl = env.TICKWHEEL_URL ?? 'http://localhost:3000';
  if (env.TICKWHEEL_APP_ID && env.TICKWHEEL_SECRET) {
    source = `app '${env.TICKWHEEL_APP_ID}' from TICKWHEEL_APP_ID / TICKWHEEL_SECRET`;
    return new TickwheelClient({ baseUrl, appId: env.TICKWHEEL_APP_ID, secret: env.TICKWHEEL_SECRET });
  }
  const file = join(resolve(env.DATA_DIR ?? './data'), 'credentials.json');
  if (!existsSync(file)) {
    process.stderr.write(`no credentials: set TICKWHEEL_APP_ID and TICKWHEEL_SECRET, or start the standalone server once (it writes ${file})\n`);
    process.exit(2);
  }
  const { appId, secret } = JSON.parse(readFileSync(file, 'utf8')) as { appId: string; secret: string };
  source = `app '${appId}' from ${file} (TICKWHEEL_APP_ID / TICKWHEEL_SECRET not set)`;
  return new TickwheelClient({ baseUrl, appId, secret });
}

let source = '';

/**
 * Sends one signed request, or ends the process (exit 2) with one line naming the server when it cannot be
 * reached (no server, or a wrong TICKWHEEL_URL): fetch's own error is a stack of undici frames.
 * @param cli the command's name, first on the line.
 */
export function requestOrExit<T>(cli: string, client: TickwheelClient, method: string, path: string, body?: unknown): Promise<TickwheelResponse<T>> {
  return client.request<T>(method, path, body).catch((err: Error & { cause?: { code?: string; message?: string } }) => {
    process.stderr.write(`${cli}: cannot reach ${client.baseUrl}: ${err.cause?.code ?? err.cause?.message ?? err.message} (is the server up? TICKWHEEL_URL)\n`);
    process.exit(2);
  });
}

/**
 * The line a CLI prints under a 401: whose credentials it signed with, and what a 401 can mean (the server
 * answers every signature failure alike, on purpose).
 */
export function unauthorizedHint(): string {
  return `signed as ${source}: a wrong secret, an app this server does not know, a clock more than 300 s off, or a client signing the old way (v1; see README 'Signing')\n`;
}

/**
 * Ends the process quietly (exit 0) when whoever reads stdout closed it early (`… | head -1`): Node raises
 * EPIPE on the next write, which would otherwise crash with a stack trace.
 */
export function exitQuietlyOnClosedPipe(): void {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
}
