import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TickwheelClient, type TickwheelResponse } from '../client/tickwheel-client.js';

/** How many more tries the CLIs give an idempotent call (a submit with a `requestId`, a GET...; docs/api.md). */
export const CLI_RETRIES = 2;

/**
 * Client for the CLIs: TICKWHEEL_URL, TICKWHEEL_APP_ID + TICKWHEEL_SECRET, else DATA_DIR/credentials.json; it
 * retries idempotent calls {@link CLI_RETRIES} times, as the typed client does.
 */
export function clientFromEnv(env = process.env): TickwheelClient {
  const baseUrl = env.TICKWHEEL_URL ?? 'http://localhost:3000';
  if (env.TICKWHEEL_APP_ID && env.TICKWHEEL_SECRET) {
    source = `app '${env.TICKWHEEL_APP_ID}' from TICKWHEEL_APP_ID / TICKWHEEL_SECRET`;
    const [appId, secret] = [env.TICKWHEEL_APP_ID, env.TICKWHEEL_SECRET];
    return new TickwheelClient({ baseUrl, appId, secret, retries: CLI_RETRIES });
  }
  const file = join(resolve(env.DATA_DIR ?? './data'), 'credentials.json');
  if (!existsSync(file)) {
    process.stderr.write(
      `no credentials: set TICKWHEEL_APP_ID and TICKWHEEL_SECRET, or DATA_DIR to the standalone server's ` +
        `(its first start writes ${file})\n`,
    );
    process.exit(2);
  }
  const { appId, secret } = JSON.parse(readFileSync(file, 'utf8')) as { appId: string; secret: string };
  source = `app '${appId}' from ${file} (TICKWHEEL_APP_ID / TICKWHEEL_SECRET not set)`;
  return new TickwheelClient({ baseUrl, appId, secret, retries: CLI_RETRIES });
}

let source = '';

/** Sends one signed request, or exits 2 with one line naming the server when it cannot be reached. */
export function requestOrExit<T>(
  cli: string,
  client: TickwheelClient,
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
): Promise<TickwheelResponse<T>> {
  return client
    .request<T>(method, path, body, headers)
    .catch((err: Error & { cause?: { code?: string; message?: string } }) => {
      process.stderr.write(
        `${cli}: cannot reach ${client.baseUrl}: ${err.cause?.code ?? err.cause?.message ?? err.message} (is the ` +
          `server up? TICKWHEEL_URL)\n`,
      );
      process.exit(2);
    });
}

/** The line a CLI prints under a 401 (the server answers every signature failure alike, on purpose). */
export function unauthorizedHint(): string {
  return (
    `signed as ${source}: a wrong secret, an app this server does not know, a disabled client, a clock more ` +
    `than 300 s off, or a client signing the old way (v1; see README 'Signing')\n`
  );
}

/** Exits 0 quietly when stdout's reader closed it early (`… | head -1`), instead of an EPIPE stack trace. */
export function exitQuietlyOnClosedPipe(): void {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
}
