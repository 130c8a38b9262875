import { join } from 'node:path';
import { runNode } from '../utils/run-node.js';

const SYNC_OPENAPI = join(process.cwd(), 'dist/src/bin/sync-openapi.js');

/**
 * Closing an app that never listened (a script such as `npm run openapi:check`) runs every shutdown hook to its end:
 * the executor's drain waits on the Clock, whose timers are unref'd, so the app holds the process while it shuts
 * down (src/shutdown-hold.ts). Without that, Node left mid-drain with exit code 13 and printed nothing.
 */
describe('closing an app that never listened', () => {
  it('should let sync-openapi --check finish its shutdown and exit 0 with its verdict', async () => {
    const r = await runNode(SYNC_OPENAPI, ['--check'], {}, { cwd: process.cwd() });
    expect([r.code, r.stdout.trim()]).toEqual([0, 'openapi/openapi.json matches the code']);
  }, 60_000);
});
