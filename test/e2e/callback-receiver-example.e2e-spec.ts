import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { startProcess } from '../utils/process-node.js';
import { waitFor } from '../utils/test-node.js';

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/**
 * README "Callbacks", as printed: standalone Tickwheel with EGRESS_ALLOW naming the receiver, the example receiver
 * (examples/callback-receiver) checking signatures with the app's secret from credentials.json, a task with a
 * callbackUrl: the receiver prints the result once, and the task view shows the delivery DELIVERED.
 */
describe('README callback receiver example (real processes, standalone)', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'tw-cb-example-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('should deliver a signed callback the example receiver accepts, once', async () => {
    const port = await freePort();
    const receiverPort = await freePort();
    const product = startProcess({ DATA_DIR: dir, PORT: String(port), EGRESS_ALLOW: `localhost:${receiverPort}` });
    let receiver: ChildProcess | undefined;
    let printed = '';
    try {
      await waitFor('the product to listen', async () => product.output().includes('listening on'), 30_000, 100);
      // As the README runs it: once the first start has written credentials.json, which the receiver reads.
      receiver = spawn(process.execPath, [join(process.cwd(), 'dist/examples/callback-receiver/receiver.js')], {
        env: { PATH: process.env.PATH ?? '', DATA_DIR: dir, PORT: String(receiverPort) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      receiver.stdout?.on('data', (c: Buffer) => (printed += c.toString()));
      receiver.stderr?.on('data', (c: Buffer) => (printed += c.toString()));
      const creds = JSON.parse(readFileSync(join(dir, 'credentials.json'), 'utf8')) as {
        appId: string;
        secret: string;
      };
      await waitFor(
        'the receiver to listen',
        async () => printed.includes('callback receiver listening on'),
        30_000,
        100,
      );
      // Its listening line is one JSON object, as the product's lines, on the PORT it was given.
      const listening = printed.split('\n').find((l) => l.includes('callback receiver listening on'));
      expect(JSON.parse(listening!)).toMatchObject({
        level: 30,
        url: `http://localhost:${receiverPort}`,
        port: receiverPort,
      });
      const client = new TickwheelClient({ baseUrl: `http://127.0.0.1:${port}`, ...creds });
      const sub = await client.submitTask({
        requestId: 'hello-cb',
        handler: 'noop',
        callbackUrl: `http://localhost:${receiverPort}/tickwheel`,
      });
      expect(sub.status).toBe(202);
      await waitFor('the receiver to print the result', async () => printed.includes('hello-cb SUCCESS'), 30_000, 100);
      expect(printed).toContain('hello-cb SUCCESS after 1 attempt(s): {"ok":true}');
      // The receiver prints before it answers: the sender records the delivery once the 204 is back.
      let task = await client.getTask('hello-cb');
      await waitFor(
        'the delivery to be recorded',
        async () =>
          ((task = await client.getTask('hello-cb')).body as { callback?: { status?: string } }).callback?.status ===
          'DELIVERED',
        10_000,
        50,
      );
      expect(task.body).toMatchObject({ callback: { status: 'DELIVERED', attempts: 1, lastStatusCode: 204 } });
      expect(printed.match(/hello-cb/g)).toHaveLength(1);
    } finally {
      receiver?.kill('SIGTERM');
      await product.stop(10_000);
    }
  }, 90_000);
});
