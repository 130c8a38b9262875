import { randomBytes } from 'node:crypto';
import { createServer as createNetServer } from 'node:net';
import { type AddressInfo } from 'node:net';
import { verifyCallback } from '../../src/common/index.js';
import { DEFAULT_SCOPES } from '../../src/modules/metadata/index.js';
import { startSink, type HttpSink } from '../utils/notification-harness.js';
import { smtpSink } from '../utils/smtp-sink.js';
import { clusterEnv, signedClient, startNode, type TestNode, uniqueNamespace, waitFor } from '../utils/test-node.js';

type Delivery = { id: string; channel: string; state: string; attempts: number; lastError: string | null };
type Message = { id: string; rule: string; title: string; deliveries: Delivery[] };

/** A free loopback port nothing listens on (yet). */
async function freePort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/**
 * Every channel through the whole product (docs/notifications.md "Channels", "Delivery"): a task that fails sends
 * one message of a FINAL_FAILURE rule to an e-mail address over a real SMTP server (smtp-server), to a chat webhook
 * and to a signed webhook whose receiver is down at first: that delivery is retried and lands once the receiver
 * comes up, with the same delivery id.
 */
describe('notification channels (cluster)', () => {
  let node: TestNode;
  let smtp: Awaited<ReturnType<typeof smtpSink>>;
  let chat: HttpSink;
  let hook: HttpSink | undefined;

  beforeAll(async () => {
    smtp = await smtpSink();
    chat = await startSink(() => 200);
    const env = {
      SMTP_URL: smtp.url,
      SMTP_FROM: 'Tickwheel <tw@example.com>',
      NOTIFY_RETRY_DELAYS_MS: '300,300,300,300',
    };
    node = await startNode(clusterEnv(uniqueNamespace('e2e-chan'), { ...env, NOTIFY_EVAL_MS: '100' }));
  }, 60_000);
  afterAll(async () => {
    await node?.close();
    await Promise.all([smtp?.close(), chat?.close(), hook?.close()]);
  });

  it('should e-mail, post to chat, and retry a webhook whose receiver is down until it is up', async () => {
    const appId = `ch${randomBytes(3).toString('hex')}`;
    const a = await signedClient(node, appId, DEFAULT_SCOPES);
    const port = await freePort();
    const channels = [
      { type: 'email', to: ['team@example.com'] },
      { type: 'chat', url: `${chat.url.split('?')[0]}` },
      { type: 'webhook', url: `http://127.0.0.1:${port}/hook` },
    ];
    const rule = { name: 'fails', kind: 'FINAL_FAILURE', quietMs: 0, channels };
    expect((await a.request('POST', '/api/notifications/rules', rule)).status).toBe(201);
    const task = { requestId: 'boom', handler: 'http', params: { url: 'http://127.0.0.1:9/nothing-listens' } };
    expect((await a.submitTask(task)).status).toBe(202);

    const message = async () =>
      (await a.request<{ items: Message[] }>('GET', '/api/notifications?rule=fails')).body.items[0];
    await waitFor(
      'the e-mail and the chat post',
      async () => smtp.mails.length === 1 && chat.hits.length === 1,
      30_000,
    );
    expect(smtp.mails[0].to).toEqual(['team@example.com']);
    expect(smtp.mails[0].data).toMatch(/^Subject: \[tickwheel\] task boom \(http\) ended FAILED/m);
    expect(JSON.parse(chat.hits[0].body)).toEqual({ text: expect.stringContaining('task boom (http) ended FAILED') });
    await waitFor('the webhook to be retried', async () => {
      const d = (await message())?.deliveries.find((x) => x.channel === 'webhook');
      return d !== undefined && d.state === 'RETRYING' && d.attempts >= 2;
    });
    const waiting = (await message()).deliveries.find((x) => x.channel === 'webhook') as Delivery;

    hook = await startSink(() => 200, port);
    await waitFor('the webhook delivered', async () => hook!.hits.length === 1, 30_000);
    expect(hook.hits[0].deliveryId).toBe(waiting.id);
    expect(verifyCallback(hook.hits[0].headers, hook.hits[0].body, a.secret)).toMatchObject({ ok: true });
    const final = await message();
    expect(final.deliveries.map((d) => [d.channel, d.state])).toEqual([
      ['email', 'DELIVERED'],
      ['chat', 'DELIVERED'],
      ['webhook', 'DELIVERED'],
    ]);
  }, 90_000);
});
