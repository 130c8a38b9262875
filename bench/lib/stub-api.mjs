// A stand-in for the API in the client benchmark (bench/client-bench.mjs): node:http, keep-alive, no checks; answers
// POST /api/tasks 202, POST /api/tasks/batch 202 with one result per task, a GET 200 with a task view. Prints its port.
import http from 'node:http';

const accepted = JSON.stringify({ requestId: 'r', status: 'PENDING', estimatedDelay: 0 });
const view = JSON.stringify({
  requestId: 'r',
  status: 'SUCCESS',
  handler: 'noop',
  params: {},
  result: { ok: true },
  error: null,
  attempts: 1,
  submittedAt: '2026-12-06T00:00:00.000Z',
  startedAt: '2026-12-06T00:00:00.010Z',
  finishedAt: '2026-12-06T00:00:00.020Z',
});
const results = new Map();
/** The batch answer for `n` tasks (one accepted result each), made once per size. */
const batchOf = (n) =>
  results.get(n) ??
  results
    .set(
      n,
      JSON.stringify({
        results: Array.from({ length: n }, (_, i) => ({
          requestId: `r${i}`,
          status: 'PENDING',
          estimatedDelay: 0,
          replayed: false,
        })),
      }),
    )
    .get(n);

const server = http.createServer((req, res) => {
  let size = 0;
  let tasks = 0;
  req.on('data', (c) => {
    size += c.length;
    for (const b of c) if (b === 0x7b) tasks++; // one '{' per task (and one for the body)
  });
  req.on('end', () => {
    const body = req.method === 'GET' ? view : req.url === '/api/tasks/batch' ? batchOf(tasks - 1) : accepted;
    res.writeHead(req.method === 'GET' ? 200 : 202, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
    void size;
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => process.exit(0));
