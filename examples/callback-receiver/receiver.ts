// A callback receiver (README "Callbacks"): checks each delivery's signature, handles each deliveryId once and
// answers 204. Run: `node dist/examples/callback-receiver/receiver.js` (PORT, default 4000; the app's secret from
// TICKWHEEL_SECRET or $DATA_DIR/credentials.json, as the CLI reads it).
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type CallbackPayload, verifyCallback } from 'tickwheel/client';

const secret =
  process.env.TICKWHEEL_SECRET ??
  (JSON.parse(readFileSync(join(process.env.DATA_DIR ?? './data', 'credentials.json'), 'utf8')) as { secret: string })
    .secret;
const seen = new Set<string>(); // a real receiver keeps this in its database, beside the effect

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    const verdict = verifyCallback(req.headers, raw, secret);
    if (!verdict.ok) return void res.writeHead(401).end(verdict.reason);
    if (!seen.has(verdict.deliveryId)) {
      seen.add(verdict.deliveryId);
      const p = JSON.parse(raw.toString('utf8')) as CallbackPayload;
      console.log(`${p.requestId} ${p.status} after ${p.attempts} attempt(s): ${JSON.stringify(p.result ?? p.error)}`);
    } else console.log(`duplicate ${verdict.deliveryId} (handled already: acknowledged, not handled again)`);
    res.writeHead(204).end();
  });
}).listen(Number(process.env.PORT ?? 4000), function (this: Server) {
  // A JSON line, as the product's pino lines (docs/observability.md "Logs"); PORT=0 picks a free port: say which.
  const port = (this.address() as AddressInfo).port;
  const url = `http://localhost:${port}`;
  console.log(JSON.stringify({ level: 30, time: Date.now(), msg: `callback receiver listening on ${url}`, url, port }));
});
