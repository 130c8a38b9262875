// The notification webhook receiver of the chaos check (docs/notifications.md "Channels", "Delivery"): an HTTP
// endpoint on loopback that checks each POST's signature with the app's secret (the product's own verifyCallback),
// records which message and delivery it carried and which instances its events name, and answers as told.
import { createServer } from 'node:http';

/**
 * @typedef {{deliveryId: string, notificationId: string, rule: string, count: number, instanceIds: string[],
 *   at: number, valid: boolean, reason?: string, answered: number}} NotifyReceipt
 */

/**
 * Starts the receiver on 127.0.0.1 (a free port). A receipt is valid when the signature checks, the body's
 * deliveryId is the `X-Tickwheel-Delivery` header's and `X-Tickwheel-Event` is `notification`; an invalid one is
 * answered 401.
 * @param {{verify: (headers: object, raw: Buffer) => {ok: boolean, reason?: string}, answer: () => number}} o
 *   `verify` checks a POST (bind the secret); `answer` picks the status of a valid one
 * @returns {Promise<{url: string, log: NotifyReceipt[], close: () => Promise<void>}>}
 */
export async function startNotifyReceiver({ verify, answer }) {
  /** @type {NotifyReceipt[]} */
  const log = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const checked = verify(req.headers, raw);
      let body = {};
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        /* counted as invalid below */
      }
      const deliveryId = String(req.headers['x-tickwheel-delivery'] ?? '');
      const events = Array.isArray(body.events) ? body.events : [];
      const valid = checked.ok && body.deliveryId === deliveryId && req.headers['x-tickwheel-event'] === 'notification';
      /** @type {NotifyReceipt} */
      const r = {
        deliveryId,
        notificationId: String(body.notificationId ?? ''),
        rule: String(body.rule ?? ''),
        count: Number(body.count ?? 0),
        instanceIds: events.map((e) => String(e?.instanceId ?? '')).filter(Boolean),
        at: Date.now(),
        valid,
        reason: checked.ok ? (valid ? undefined : 'deliveryId or X-Tickwheel-Event mismatch') : checked.reason,
        answered: valid ? answer() : 401,
      };
      log.push(r);
      res.writeHead(r.answered, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    log,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
