// The TCP forwarder of test/utils/tcp-proxy.ts, in a process of its own (as a real proxy is): a test's
// synchronous calls (execFileSync) must not stall the database traffic of the product behind it.
// Messages from the parent: { target: number | null } points new connections there and cuts every open one.
// It sends { port } once listening and { ack: n } after each change.
import { createServer, connect } from 'node:net';

let backend = process.argv[2] === 'null' ? null : Number(process.argv[2]);
const open = new Set();
const server = createServer((client) => {
  open.add(client);
  client.on('close', () => open.delete(client));
  client.on('error', () => client.destroy());
  if (backend === null) return void client.destroy();
  const upstream = connect(backend, '127.0.0.1');
  open.add(upstream);
  upstream.on('close', () => {
    open.delete(upstream);
    client.destroy();
  });
  upstream.on('error', () => upstream.destroy());
  client.on('close', () => upstream.destroy());
  client.pipe(upstream);
  upstream.pipe(client);
});
let changes = 0;
process.on('message', (m) => {
  backend = m.target;
  for (const s of open) s.destroy();
  process.send({ ack: ++changes });
});
process.on('disconnect', () => process.exit(0));
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
