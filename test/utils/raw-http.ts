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
export function rawExchange(port: number, head: string, nextChunk: () => Buffer | null, idleMs = 5000): Promise<RawExchange> {
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
