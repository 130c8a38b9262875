import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpFetch } from './http-fetch.js';

describe('httpFetch (the worker SDK default fetch)', () => {
  let server: Server;
  let url: string;
  const seen: Array<{ method?: string; body: string; headers: IncomingMessage['headers']; port?: number }> = [];

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      let body = '';
      for await (const c of req) body += String(c);
      seen.push({ method: req.method, body, headers: req.headers, port: req.socket.remotePort });
      if (req.url === '/drop') return void req.socket.destroy();
      if (req.url === '/slow') return void setTimeout(() => res.end('late'), 2_000);
      res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'application/json' }).end('{"ok":"é"}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('sends method, headers and body; answers the status and the utf-8 text; keeps the connection alive', async () => {
    const a = await httpFetch(`${url}/x`, { method: 'POST', headers: { 'x-sig': 's' }, body: '{"n":"é"}' });
    expect(a.status).toBe(200);
    expect(await a.text()).toBe('{"ok":"é"}');
    expect(seen[0]).toMatchObject({
      method: 'POST',
      body: '{"n":"é"}',
      headers: { 'x-sig': 's', 'content-length': '10' },
    });
    const b = await httpFetch(new URL(`${url}/missing`), { method: 'GET' });
    expect(b.status).toBe(404);
    expect(seen[1].port).toBe(seen[0].port); // the same socket
  });

  it('rejects on a dropped connection, and with the reason when its signal aborts', async () => {
    await expect(httpFetch(`${url}/drop`, { method: 'POST', body: '{}' })).rejects.toThrow(/socket hang up/);
    const ac = new AbortController();
    const slow = httpFetch(`${url}/slow`, { method: 'POST', body: '{}', signal: ac.signal });
    ac.abort(new Error('SHUTDOWN'));
    await expect(slow).rejects.toThrow('SHUTDOWN');
    const pre = new AbortController();
    pre.abort(new Error('early'));
    await expect(httpFetch(`${url}/x`, { signal: pre.signal })).rejects.toThrow('early');
  });
});
