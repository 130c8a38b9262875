import { jest } from '@jest/globals';
import { hostname } from 'node:os';
import { EgressPolicy, egressHttp } from '../../src/modules/egress/index.js';
import { checkCallbackUrl } from '../../src/modules/jobs/callback-url-check.service.js';
import { CallbackState } from '../../src/modules/metadata/index.js';
import { waitFor } from '../utils/async.js';
import { createServer as createTcp, type Server as TcpServer, type Socket } from 'node:net';
import { createServer as createHttp, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type DbKind } from '../utils/metadata-db.js';
import { SHORT, senderHarness } from '../utils/callback-sender-harness.js';

jest.setTimeout(60_000);

describe.each<DbKind>(['mysql'])(
  'CallbackSender against hostile receivers on %s (docs/callbacks.md "Sender")',
  (kind) => {
    const h = senderHarness(kind);
    const { sender, receiver, delivery, row, hostRow, start, idle, advance } = h;

    const servers: Array<TcpServer | HttpServer> = [];
    const sockets: Socket[] = [];
    async function tcp(onConn: (s: Socket) => void, host = '127.0.0.1'): Promise<string> {
      const s = createTcp((sock) => {
        sockets.push(sock);
        sock.on('error', () => undefined);
        onConn(sock);
      });
      servers.push(s);
      await new Promise<void>((r) => s.listen(0, host, r));
      return `http://${host}:${(s.address() as AddressInfo).port}/hook`;
    }
    afterEach(async () => {
      sockets.splice(0).forEach((s) => s.destroy());
      await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
    });

    it('a 307/302 to a refused loopback address is not followed: nothing reaches it', async () => {
      const hits: string[] = [];
      const refused = createHttp((req, res) => {
        hits.push(req.url ?? '');
        res.writeHead(200).end();
      });
      servers.push(refused);
      await new Promise<void>((r) => refused.listen(0, '127.0.0.2', r));
      const target = `http://127.0.0.2:${(refused.address() as AddressInfo).port}/x`;
      const r307 = await receiver(() => ({ status: 307, headers: { location: target } }));
      const r302 = await receiver(() => ({ status: 302, headers: { location: target } }));
      const a = await delivery(r307.url);
      const b = await delivery(r302.url);
      const direct = await delivery(target);
      start(sender());
      await idle();
      const rows = await Promise.all([a, b, direct].map(row));
      expect(rows.map((d) => d.state)).toEqual([1, 2, 3].map(() => CallbackState.CALLBACK_FAILED));
      expect(rows.map((d) => d.lastStatusCode)).toEqual([307, 302, null]);
      expect(rows[2].lastError).toMatch(/^EGRESS_REFUSED/);
      expect(hits).toEqual([]);
    });

    it('headers trickled forever (slowloris) end the try at the read timeout', async () => {
      const url = await tcp((sock) => {
        sock.once('data', () => {
          sock.write('HTTP/1.1 200 OK\r\n');
          const t = setInterval(() => (sock.destroyed ? clearInterval(t) : sock.write('X-a: b\r\n')), 50);
        });
      });
      const id = await delivery(url);
      // Real time: the read timeout is a real timer of the connection, what this receiver attacks.
      start(sender({ readTimeoutMs: 500 }));
      await idle();
      expect(await row(id)).toMatchObject({ state: CallbackState.RETRYING, attempts: 1 });
    });

    it('a 2xx whose body never ends is DELIVERED and the connection is dropped', async () => {
      let closed = false;
      const url = await tcp((sock) => {
        sock.once('data', () => {
          sock.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n');
          const t = setInterval(
            () => (sock.destroyed ? clearInterval(t) : sock.write('4000\r\n' + 'x'.repeat(0x4000) + '\r\n')),
            5,
          );
          sock.on('close', () => (closed = true));
        });
      });
      const id = await delivery(url);
      start(sender());
      await idle();
      expect((await row(id)).state).toBe(CallbackState.DELIVERED);
      await waitFor('closed', async () => closed, 5_000, 20);
    });

    it('huge headers, reset on accept, garbage status line: each a retry, the loop goes on', async () => {
      const huge = await tcp((sock) =>
        sock.once('data', () => sock.write(`HTTP/1.1 200 OK\r\nX: ${'a'.repeat(100_000)}\r\n\r\n`)),
      );
      const reset = await tcp((sock) => sock.resetAndDestroy());
      const garbage = await tcp((sock) => sock.once('data', () => sock.end('HTTP/1.1 9999 WHAT\r\n\r\n')));
      const status1xx = await tcp((sock) =>
        sock.once('data', () => sock.write('HTTP/1.1 102 Processing\r\n\r\n'.repeat(1000))),
      );
      const live = await receiver();
      const ids = [await delivery(huge), await delivery(reset), await delivery(garbage), await delivery(status1xx)];
      const ok = await delivery(live.url);
      start(sender({ readTimeoutMs: 1_000 }));
      await idle(); // the 1xx flood ends at the read timeout, in real time
      expect(live.count(ok)).toBe(1);
      expect((await Promise.all(ids.map(row))).map((d) => [d.state, d.attempts])).toEqual(
        ids.map(() => [CallbackState.RETRYING, 1]),
      );
    });

    it('a 429 storm with a garbage Retry-After still ends, within its tries', async () => {
      const r = await receiver(() => ({ status: 429, headers: { 'retry-after': 'a 1' } }));
      const id = await delivery(r.url);
      start(sender({ retryDelaysMs: [5_000, 5_000, 5_000] }));
      await idle(); // 'a 1' reads as a date in 2001: no wait at all, and still four tries at most
      expect((await row(id)).state).toBe(CallbackState.CALLBACK_FAILED);
      expect(r.count(id)).toBe(4);
    });

    it('a redelivery of a delivery whose final state is older than CALLBACK_MAX_AGE_MS gets its whole schedule', async () => {
      // docs/callbacks.md "Redeliver": "from the start: PENDING, no tries, due now … whatever its state".
      const r = await receiver((nth) => ({ status: nth === 1 ? 500 : 200 }));
      const id = await delivery(r.url, {}, h.clock.now() - 2 * 3_600_000); // final 2 h ago, maxAgeMs 1 h
      start(sender({ retryDelaysMs: [6_000, 6_000] }));
      await idle();
      expect((await row(id)).state).toBe(CallbackState.CALLBACK_FAILED); // expired by the first housekeeping
      expect(await h.deliveries.redeliver(id, h.clock.now())).toBe(true);
      await advance(SHORT.pollMs);
      expect(r.count(id)).toBe(1);
      // The 6 s retry (production: 5 s, 30 s, …) is longer than a housekeeping period (5 s): one runs meanwhile.
      await advance(5_000);
      expect((await row(id)).state).toBe(CallbackState.RETRYING);
      await advance(1_000);
      const d = await row(id);
      expect([d.state, r.count(id)]).toEqual([CallbackState.DELIVERED, 2]);
    });
    it("a name that may resolve to loopback (this host's name) passes submit but nothing reaches it at send time", async () => {
      const got: string[] = [];
      const srv = createHttp((req, res) => {
        got.push(req.headers.host ?? '');
        res.writeHead(200).end();
      });
      servers.push(srv);
      await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
      const port = (srv.address() as AddressInfo).port;
      const policy = EgressPolicy.fromSettings({});
      // /etc/h.hosts commonly maps this host's name to 127.0.1.1 or 127.0.0.1: allowed at submit (no DNS), refused
      // on the resolved address when sent.
      for (const name of [hostname(), `${hostname()}.`, hostname().toUpperCase(), 'localhost..']) {
        const url = `http://${name}:${port}/x`;
        try {
          checkCallbackUrl(policy, url, 'callbackUrl');
        } catch {
          /* refused at submit already: fine too */
        }
        await egressHttp(
          { url, method: 'POST', headers: {}, body: '{}', signal: AbortSignal.timeout(3_000) },
          { policy, followRedirects: false, connectTimeoutMs: 1_000, headTimeoutMs: 1_000 },
        ).catch(() => undefined);
      }
      expect(got).toEqual([]);
    });
    it('one poison delivery (the receiver 500s on its body only) does not keep a healthy host down', async () => {
      let poison = '';
      const r = await receiver((_nth, id) => ({ status: id === poison ? 500 : 200 }));
      poison = await delivery(r.url);
      start(sender({ retryDelaysMs: [200, 400, 800, 1_600, 3_200] }));
      await idle();
      await advance(200 + 400, 200); // two more tries after their waits: the host goes down for the app
      expect((await hostRow(r))?.downSince).not.toBeNull();
      await advance(1_000, 200); // the poison, the only delivery waiting, is every probe meanwhile
      const others: string[] = [];
      for (let i = 0; i < 3; i++) others.push(await delivery(r.url));
      await advance(6_000, 200); // the newest arrival replaced the poison as the probe; it goes through
      expect((await hostRow(r))?.downSince).toBeNull();
      const states = await Promise.all([poison, ...others].map(async (id) => (await row(id)).state));
      expect(states).toEqual([...Array(3).fill(CallbackState.CALLBACK_FAILED), CallbackState.DELIVERED]);
      expect(r.count(others[0]) + r.count(others[1])).toBe(0); // failed fast while down: redeliver them by host
      const after = await delivery(r.url);
      await advance(SHORT.pollMs);
      expect((await row(after)).state).toBe(CallbackState.DELIVERED);
    });
  },
);
