import { request } from 'node:http';
import { connect } from 'node:net';

/** What came back on a raw connection: the bytes read, how many body bytes were written, and how it ended. */
export interface RawExchange {
  response: string;
  written: number;
  /** True when the connection ended (the server closed or reset it) before every chunk offered was written. */
  closedEarly: boolean;
}

/**
 * Writes `head` (request line and headers, CRLF-terminated, blank line included) on a fresh TCP connection,
 * then body chunks from `nextChunk` until it returns null or the server closes the connection; resolves
 * when the connection is closed (by either side) or after `idleMs` without news, with what the server sent.
 * For what fetch cannot do: bodies larger than declared, huge headers, answers read while still sending.
 */
export function rawExchange(
  port: number,
  head: string,
  nextChunk: () => Buffer | null,
  idleMs = 5000,
): Promise<RawExchange> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let response = '';
    let written = 0;
    let exhausted = false;
    let done = false;
    let idle: NodeJS.Timeout;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(idle);
      socket.destroy();
      resolve({ response, written, closedEarly: !exhausted });
    };
    const poke = () => {
      clearTimeout(idle);
      idle = setTimeout(finish, idleMs);
    };
    const pump = () => {
      for (;;) {
        if (done || socket.destroyed) return;
        const chunk = nextChunk();
        if (chunk === null) return void (exhausted = true);
        written += chunk.length;
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
    };
    socket.on('data', (c: Buffer) => ((response += c.toString('latin1')), poke()));
    socket.on('error', finish);
    socket.on('close', finish);
    socket.on('end', finish);
    socket.on('connect', () => {
      poke();
      socket.write(head);
      pump();
    });
  });
}

/** An answer read through {@link rawRequest}: status, headers and the body (parsed JSON, else the text). */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/**
 * One request through node:http, with the request target and headers exactly as given: unlike fetch, it keeps
 * `/api/./tasks` and `//api` as they are, sends a header given as an array once per value (a duplicated
 * header), adds no Content-Type, and takes an absolute-form target (`http://host/api/tasks`) as `path`.
 */
export function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string | string[]> = {},
  body?: string | Buffer,
): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port,
        // A fresh connection each time: a pooled keep-alive socket the server closed as idle (a loaded machine
        // stalled this test) answers ECONNRESET, which is not the answer under test.
        agent: false,
        method,
        path,
        headers: body === undefined ? headers : { 'content-length': String(Buffer.byteLength(body)), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : null;
          } catch {
            /* not JSON: keep the text */
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
